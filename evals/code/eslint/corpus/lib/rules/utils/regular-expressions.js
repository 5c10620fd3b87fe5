/**
 * @fileoverview Common utils for regular expressions.
 * @author Josh Goldberg
 * @author Toru Nagashima
 */

"use strict";

const { RegExpValidator } = require("@eslint-community/regexpp");

const REGEXPP_LATEST_ECMA_VERSION = 2025;

function isValidWithUnicodeFlag(ecmaVersion, pattern, flag = "u") {
	if (flag === "u" && ecmaVersion <= 5) {
		// ecmaVersion <= 5 doesn't support the 'u' flag
		return false;
	}
	if (flag === "v" && ecmaVersion <= 2023) {
		return false;
	}

	const validator = new RegExpValidator({
		ecmaVersion: Math.min(ecmaVersion, REGEXPP_LATEST_ECMA_VERSION),
	});

	try {
		validator.validatePattern(
			pattern,
			void 0,
			void 0,
			flag === "u"
				? {
						unicode: /* uFlag = */ true,
					}
				: {
						unicodeSets: true,
					},
		);
	} catch {
		return false;
	}

	return true;
}

module.exports = {
	isValidWithUnicodeFlag,
	REGEXPP_LATEST_ECMA_VERSION,
};
