/**
 * @author Toru Nagashima <https://github.com/mysticatea>
 */
"use strict";

module.exports = function isSurrogatePair(lead, tail) {
	return lead >= 0xd800 && lead < 0xdc00 && tail >= 0xdc00 && tail < 0xe000;
};
