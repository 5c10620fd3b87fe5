/**
 * @fileoverview An object that creates fix commands for rules.
 * @author Nicholas C. Zakas
 */
"use strict";

//------------------------------------------------------------------------------
// Typedefs
//------------------------------------------------------------------------------

/**
 * @import { SourceRange } from "@eslint/core";
 */

/* eslint class-methods-use-this: off -- Methods desired on instance */

//------------------------------------------------------------------------------
// Requirements
//------------------------------------------------------------------------------

// none!

//------------------------------------------------------------------------------
// Helpers
//------------------------------------------------------------------------------

function insertTextAt(index, text) {
	return {
		range: [index, index],
		text,
	};
}

function assertIsString(text) {
	if (typeof text !== "string") {
		throw new TypeError("'text' must be a string");
	}
}

//------------------------------------------------------------------------------
// Public Interface
//------------------------------------------------------------------------------

class RuleFixer {
	/**
	 * The source code object representing the text to be fixed.
	 * @type {SourceCode}
	 */
	#sourceCode;

	/**
	 * Creates a new instance.
	 * @param {Object} options The options for the fixer.
	 * @param {SourceCode} options.sourceCode The source code object representing the text to be fixed.
	 */
	constructor({ sourceCode }) {
		this.#sourceCode = sourceCode;
	}

	insertTextAfter(nodeOrToken, text) {
		assertIsString(text);

		const range = this.#sourceCode.getRange(nodeOrToken);

		return this.insertTextAfterRange(range, text);
	}

	insertTextAfterRange(range, text) {
		assertIsString(text);

		return insertTextAt(range[1], text);
	}

	insertTextBefore(nodeOrToken, text) {
		assertIsString(text);

		const range = this.#sourceCode.getRange(nodeOrToken);

		return this.insertTextBeforeRange(range, text);
	}

	insertTextBeforeRange(range, text) {
		assertIsString(text);

		return insertTextAt(range[0], text);
	}

	replaceText(nodeOrToken, text) {
		assertIsString(text);

		const range = this.#sourceCode.getRange(nodeOrToken);

		return this.replaceTextRange(range, text);
	}

	replaceTextRange(range, text) {
		assertIsString(text);

		return {
			range,
			text,
		};
	}

	remove(nodeOrToken) {
		const range = this.#sourceCode.getRange(nodeOrToken);

		return this.removeRange(range);
	}

	removeRange(range) {
		return {
			range,
			text: "",
		};
	}
}

module.exports = { RuleFixer };
