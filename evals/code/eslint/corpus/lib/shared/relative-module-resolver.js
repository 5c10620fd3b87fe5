/**
 * Utility for resolving a module relative to another module
 * @author Teddy Katz
 */

"use strict";

const Module = require("node:module");

/*
 * `Module.createRequire` is added in v12.2.0. It supports URL as well.
 * We only support the case where the argument is a filepath, not a URL.
 */
const createRequire = Module.createRequire;

function resolve(moduleName, relativeToPath) {
	return createRequire(relativeToPath).resolve(moduleName);
}

exports.resolve = resolve;
