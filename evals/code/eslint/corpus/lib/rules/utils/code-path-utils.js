/**
 * @fileoverview Code path related utilities.
 */

"use strict";

function isAnySegmentReachable(segments) {
	for (const segment of segments) {
		if (segment.reachable) {
			return true;
		}
	}

	return false;
}

module.exports = { isAnySegmentReachable };
