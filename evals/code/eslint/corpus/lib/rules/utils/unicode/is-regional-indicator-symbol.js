/**
 * @author Toru Nagashima <https://github.com/mysticatea>
 */
"use strict";

module.exports = function isRegionalIndicatorSymbol(code) {
	return code >= 0x1f1e6 && code <= 0x1f1ff;
};
