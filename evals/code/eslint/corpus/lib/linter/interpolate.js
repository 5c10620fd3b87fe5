/**
 * @fileoverview Interpolate keys from an object into a string with {{ }} markers.
 * @author Jed Fox
 */

"use strict";

//------------------------------------------------------------------------------
// Public Interface
//------------------------------------------------------------------------------

function getPlaceholderMatcher() {
	return /\{\{([^{}]+)\}\}/gu;
}

const PLACEHOLDER_MATCHER = getPlaceholderMatcher();

function interpolate(text, data) {
	if (!data) {
		return text;
	}

	// Fast path: avoid the regex when there are no placeholders.
	if (!text.includes("{{")) {
		return text;
	}

	/*
	 * Note: `String#replace()` doesn't depend on or retain `lastIndex` state,
	 * so a shared regex is safe here and avoids creating a new regex for
	 * every message.
	 */
	// Substitution content for any {{ }} markers.
	return text.replace(
		PLACEHOLDER_MATCHER,
		(fullMatch, termWithWhitespace) => {
			const term = termWithWhitespace.trim();

			if (term in data) {
				return data[term];
			}

			// Preserve old behavior: If parameter name not provided, don't replace it.
			return fullMatch;
		},
	);
}

module.exports = {
	getPlaceholderMatcher,
	interpolate,
};
