/**
 * @fileoverview SourceCodeVisitor class
 * @author Nicholas C. Zakas
 */

"use strict";

//-----------------------------------------------------------------------------
// Helpers
//-----------------------------------------------------------------------------

const emptyArray = Object.freeze([]);

const listenerRuleIds = new WeakMap();

function getListenerRuleId(func) {
	return listenerRuleIds.get(func);
}

function setListenerRuleId(func, ruleId) {
	listenerRuleIds.set(func, ruleId);
}

function attachRuleId(error, ruleId) {
	/*
	 * Rules can throw primitives, which can't carry a `ruleId`. Assigning to
	 * one throws a `TypeError` in strict mode, which would replace the value
	 * the rule actually threw, so such values are left as-is.
	 */
	if (
		error !== null &&
		(typeof error === "object" || typeof error === "function")
	) {
		error.ruleId = ruleId;
	}
}

function attributeError(error, func) {
	const ruleId = listenerRuleIds.get(func);

	if (ruleId !== void 0) {
		attachRuleId(error, ruleId);
	}
}

//------------------------------------------------------------------------------
// Exports
//------------------------------------------------------------------------------

class SourceCodeVisitor {
	/**
	 * The functions to call for a given name.
	 * @type {Map<string, Function[]>}
	 */
	#functions = new Map();

	add(name, func) {
		const funcs = this.#functions.get(name);

		if (funcs) {
			funcs.push(func);
		} else {
			this.#functions.set(name, [func]);
		}
	}

	get(name) {
		return this.#functions.get(name) ?? emptyArray;
	}

	forEachName(callback) {
		this.#functions.forEach((funcs, name) => {
			callback(name);
		});
	}

	callSync(name, ...args) {
		const funcs = this.#functions.get(name);

		if (!funcs) {
			return;
		}

		// Fast path for the overwhelmingly common one-argument call.
		if (args.length === 1) {
			const arg = args[0];

			for (let i = 0; i < funcs.length; i++) {
				const func = funcs[i];

				try {
					func(arg);
				} catch (err) {
					attributeError(err, func);
					throw err;
				}
			}
			return;
		}

		for (let i = 0; i < funcs.length; i++) {
			const func = funcs[i];

			try {
				func(...args);
			} catch (err) {
				attributeError(err, func);
				throw err;
			}
		}
	}
}

module.exports = {
	SourceCodeVisitor,
	getListenerRuleId,
	setListenerRuleId,
	attachRuleId,
};
