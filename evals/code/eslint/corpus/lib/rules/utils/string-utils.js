/**
 * @fileoverview Common utils for strings.
 */
"use strict";
//------------------------------------------------------------------------------
// Public Interface
//------------------------------------------------------------------------------
const LETTER_PATTERN = /\p{L}/u;
function containsLetter(string) {
	return LETTER_PATTERN.test(string);
}

module.exports = {
	LETTER_PATTERN,
	containsLetter,
};
