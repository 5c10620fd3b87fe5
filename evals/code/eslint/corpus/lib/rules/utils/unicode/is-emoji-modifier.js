/**
 * @author Toru Nagashima <https://github.com/mysticatea>
 */
"use strict";

module.exports = function isEmojiModifier(code) {
	return code >= 0x1f3fb && code <= 0x1f3ff;
};
