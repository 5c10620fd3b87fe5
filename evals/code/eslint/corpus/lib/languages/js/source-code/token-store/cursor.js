/**
 * @fileoverview Define the abstract class about cursors which iterate tokens.
 * @author Toru Nagashima
 */
"use strict";

//------------------------------------------------------------------------------
// Exports
//------------------------------------------------------------------------------

module.exports = class Cursor {
	/**
	 * Initializes this cursor.
	 */
	constructor() {
		this.current = null;
	}

	getOneToken() {
		return this.moveNext() ? this.current : null;
	}

	getAllTokens() {
		const tokens = [];

		while (this.moveNext()) {
			tokens.push(this.current);
		}

		return tokens;
	}

	/**
	 * Moves this cursor to the next token.
	 * @returns {boolean} `true` if the next token exists.
	 * @abstract
	 */
	/* c8 ignore next */
	// eslint-disable-next-line class-methods-use-this -- Unused
	moveNext() {
		throw new Error("Not implemented.");
	}
};
