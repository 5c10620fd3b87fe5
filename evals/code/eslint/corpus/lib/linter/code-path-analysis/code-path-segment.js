/**
 * @fileoverview The CodePathSegment class.
 * @author Toru Nagashima
 */

"use strict";

//------------------------------------------------------------------------------
// Requirements
//------------------------------------------------------------------------------

const debug = require("./debug-helpers");

//------------------------------------------------------------------------------
// Helpers
//------------------------------------------------------------------------------

function isReachable(segment) {
	return segment.reachable;
}

//------------------------------------------------------------------------------
// Public Interface
//------------------------------------------------------------------------------

class CodePathSegment {
	constructor(id, allPrevSegments, reachable) {
		this.id = id;

		this.nextSegments = [];

		this.prevSegments = allPrevSegments.filter(isReachable);

		this.allNextSegments = [];

		this.allPrevSegments = allPrevSegments;

		this.reachable = reachable;

		// Internal data.
		Object.defineProperty(this, "internal", {
			value: {
				// determines if the segment has been attached to the code path
				used: false,

				// array of previous segments coming from the end of a loop
				loopedPrevSegments: [],
			},
		});

		/* c8 ignore start */
		if (debug.enabled) {
			this.internal.nodes = [];
		} /* c8 ignore stop */
	}

	isLoopedPrevSegment(segment) {
		return this.internal.loopedPrevSegments.includes(segment);
	}

	static newRoot(id) {
		return new CodePathSegment(id, [], true);
	}

	static newNext(id, allPrevSegments) {
		return new CodePathSegment(
			id,
			CodePathSegment.flattenUnusedSegments(allPrevSegments),
			allPrevSegments.some(isReachable),
		);
	}

	static newUnreachable(id, allPrevSegments) {
		const segment = new CodePathSegment(
			id,
			CodePathSegment.flattenUnusedSegments(allPrevSegments),
			false,
		);

		/*
		 * In `if (a) return a; foo();` case, the unreachable segment preceded by
		 * the return statement is not used but must not be removed.
		 */
		CodePathSegment.markUsed(segment);

		return segment;
	}

	static newDisconnected(id, allPrevSegments) {
		return new CodePathSegment(id, [], allPrevSegments.some(isReachable));
	}

	static markUsed(segment) {
		if (segment.internal.used) {
			return;
		}
		segment.internal.used = true;

		let i;

		if (segment.reachable) {
			/*
			 * If the segment is reachable, then it's officially part of the
			 * code path. This loops through all previous segments to update
			 * their list of next segments. Because the segment is reachable,
			 * it's added to both `nextSegments` and `allNextSegments`.
			 */
			for (i = 0; i < segment.allPrevSegments.length; ++i) {
				const prevSegment = segment.allPrevSegments[i];

				prevSegment.allNextSegments.push(segment);
				prevSegment.nextSegments.push(segment);
			}
		} else {
			/*
			 * If the segment is not reachable, then it's not officially part of the
			 * code path. This loops through all previous segments to update
			 * their list of next segments. Because the segment is not reachable,
			 * it's added only to `allNextSegments`.
			 */
			for (i = 0; i < segment.allPrevSegments.length; ++i) {
				segment.allPrevSegments[i].allNextSegments.push(segment);
			}
		}
	}

	static markPrevSegmentAsLooped(segment, prevSegment) {
		segment.internal.loopedPrevSegments.push(prevSegment);
	}

	static flattenUnusedSegments(segments) {
		const done = new Set();

		for (let i = 0; i < segments.length; ++i) {
			const segment = segments[i];

			// Ignores duplicated.
			if (done.has(segment)) {
				continue;
			}

			// Use previous segments if unused.
			if (!segment.internal.used) {
				for (let j = 0; j < segment.allPrevSegments.length; ++j) {
					const prevSegment = segment.allPrevSegments[j];

					if (!done.has(prevSegment)) {
						done.add(prevSegment);
					}
				}
			} else {
				done.add(segment);
			}
		}

		return [...done];
	}
}

module.exports = CodePathSegment;
