/**
 * @author Toru Nagashima <https://github.com/mysticatea>
 */
"use strict";

module.exports = function isCombiningCharacter(codePoint) {
	return /^\p{M}$/u.test(String.fromCodePoint(codePoint));
};
