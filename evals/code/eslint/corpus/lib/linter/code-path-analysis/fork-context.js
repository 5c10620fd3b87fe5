/**
 * @fileoverview A class to operate forking.
 *
 * This is state of forking.
 * This has a fork list and manages it.
 *
 * @author Toru Nagashima
 */

"use strict";

//------------------------------------------------------------------------------
// Requirements
//------------------------------------------------------------------------------

const assert = require("../../shared/assert"),
	CodePathSegment = require("./code-path-segment");

//------------------------------------------------------------------------------
// Helpers
//------------------------------------------------------------------------------

function isReachable(segment) {
	return segment.reachable;
}

function createSegments(context, startIndex, endIndex, create) {
	/** @type {Array<Array<CodePathSegment>>} */
	const list = context.segmentsList;

	/*
	 * Both `startIndex` and `endIndex` work the same way: if the number is zero
	 * or more, then the number is used as-is. If the number is negative,
	 * then that number is added to the length of the segments list to
	 * determine the index to use. That means -1 for either argument
	 * is the last element, -2 is the second to last, and so on.
	 *
	 * So if `startIndex` is 0, `endIndex` is -1, and `list.length` is 3, the
	 * effective `startIndex` is 0 and the effective `endIndex` is 2, so this function
	 * will include items at indices 0, 1, and 2.
	 *
	 * Therefore, if `startIndex` is -1 and `endIndex` is -1, that means we'll only
	 * be using the last segment in `list`.
	 */
	const normalizedBegin =
		startIndex >= 0 ? startIndex : list.length + startIndex;
	const normalizedEnd = endIndex >= 0 ? endIndex : list.length + endIndex;

	/** @type {Array<CodePathSegment>} */
	const segments = [];

	for (let i = 0; i < context.count; ++i) {
		// this is passed into `new CodePathSegment` to add to code path.
		const allPrevSegments = [];

		for (let j = normalizedBegin; j <= normalizedEnd; ++j) {
			allPrevSegments.push(list[j][i]);
		}

		// note: `create` is just a wrapper that augments `new CodePathSegment`.
		segments.push(create(context.idGenerator.next(), allPrevSegments));
	}

	return segments;
}

function mergeExtraSegments(context, segments) {
	let currentSegments = segments;

	/*
	 * We need to ensure that the array returned from this function contains no more
	 * than the number of segments that the context allows. `context.count` indicates
	 * how many items should be in the returned array to ensure that the new segment
	 * entries will line up with the already existing segment entries.
	 */
	while (currentSegments.length > context.count) {
		const merged = [];

		/*
		 * Because `context.count` is a factor of 2 inside of a `finally` block,
		 * we can divide the segment count by 2 to merge the paths together.
		 * This loops through each segment in the list and creates a new `CodePathSegment`
		 * that has the segment and the segment two slots away as previous segments.
		 *
		 * If `currentSegments` is [a,b,c,d], this will create new segments e and f, such
		 * that:
		 *
		 * When `i` is 0:
		 * a->e
		 * c->e
		 *
		 * When `i` is 1:
		 * b->f
		 * d->f
		 */
		for (
			let i = 0, length = Math.floor(currentSegments.length / 2);
			i < length;
			++i
		) {
			merged.push(
				CodePathSegment.newNext(context.idGenerator.next(), [
					currentSegments[i],
					currentSegments[i + length],
				]),
			);
		}

		/*
		 * Go through the loop condition one more time to see if we have the
		 * number of segments for the context. If not, we'll keep merging paths
		 * of the merged segments until we get there.
		 */
		currentSegments = merged;
	}

	return currentSegments;
}

//------------------------------------------------------------------------------
// Public Interface
//------------------------------------------------------------------------------

class ForkContext {
	/**
	 * Creates a new instance.
	 * @param {IdGenerator} idGenerator An identifier generator for segments.
	 * @param {ForkContext|null} upper The preceding fork context.
	 * @param {number} count The number of parallel segments in each element
	 *      of `segmentsList`.
	 */
	constructor(idGenerator, upper, count) {
		this.idGenerator = idGenerator;

		this.upper = upper;

		this.count = count;

		this.segmentsList = [];
	}

	get head() {
		const list = this.segmentsList;

		return list.length === 0 ? [] : list.at(-1);
	}

	get empty() {
		return this.segmentsList.length === 0;
	}

	get reachable() {
		const segments = this.head;

		return segments.length > 0 && segments.some(isReachable);
	}

	makeNext(startIndex, endIndex) {
		return createSegments(
			this,
			startIndex,
			endIndex,
			CodePathSegment.newNext,
		);
	}

	makeUnreachable(startIndex, endIndex) {
		return createSegments(
			this,
			startIndex,
			endIndex,
			CodePathSegment.newUnreachable,
		);
	}

	makeDisconnected(startIndex, endIndex) {
		return createSegments(
			this,
			startIndex,
			endIndex,
			CodePathSegment.newDisconnected,
		);
	}

	add(segments) {
		assert(
			segments.length >= this.count,
			`${segments.length} >= ${this.count}`,
		);
		this.segmentsList.push(mergeExtraSegments(this, segments));
	}

	replaceHead(replacementHeadSegments) {
		assert(
			replacementHeadSegments.length >= this.count,
			`${replacementHeadSegments.length} >= ${this.count}`,
		);
		this.segmentsList.splice(
			-1,
			1,
			mergeExtraSegments(this, replacementHeadSegments),
		);
	}

	addAll(otherForkContext) {
		assert(otherForkContext.count === this.count);
		this.segmentsList.push(...otherForkContext.segmentsList);
	}

	clear() {
		this.segmentsList = [];
	}

	static newRoot(idGenerator) {
		const context = new ForkContext(idGenerator, null, 1);

		context.add([CodePathSegment.newRoot(idGenerator.next())]);

		return context;
	}

	static newEmpty(parentContext, shouldForkLeavingPath) {
		return new ForkContext(
			parentContext.idGenerator,
			parentContext,
			(shouldForkLeavingPath ? 2 : 1) * parentContext.count,
		);
	}
}

module.exports = ForkContext;
