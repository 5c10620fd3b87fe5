"use strict";

const { ESLint } = require("./eslint");

module.exports = {
	ESLint,
};
