/**
 * @fileoverview Assertion utilities equivalent to the Node.js node:asserts module.
 * @author Josh Goldberg
 */

"use strict";

function ok(value, message = "Assertion failed.") {
	if (!value) {
		throw new Error(message);
	}
}

module.exports = ok;
