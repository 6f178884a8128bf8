//! Blind suites for the JavaScript and TypeScript resolvers, scored like the Python ones
//! (`python_callgraph.rs`): small programs by category, each with its whole expected call
//! graph `{"caller": ["callee", ...]}`, every module and function of the case a key, named by
//! the JavaScript naming rules (README, "Code canvas": `src/app.f`, `src/app.C.m`,
//! `src/app.obj.run`, `src/app.default`, `src/app.exports`, ...).
//!
//! A case is one file `tests/jscg-blind<N>/<language>/<category>/<case>.case`: `# …` comment
//! lines, `--- path` starts a source file, `=== callgraph` is followed by the expected graph.
//! Every expected graph was recorded by running the program under Node
//! (`tests/jscg/trace.mjs`, the dynamic oracle; `make test` checks that each case still
//! records the graph it holds), never written from the resolver: each round of cases is
//! written without reading the resolver, measured once, and only then used to fix it.
//!
//! Only edges between the case's own modules and functions are scored: calls of builtins
//! (`console.log`, `Array.prototype.map`) and of npm packages are not in the expected graphs,
//! so an edge of ours counts only when both its ends are modules or functions of the case
//! (a key of the expected graph or of ours). Each suite is gated at what it measures (`GATES`).
#![allow(clippy::unwrap_used)]

mod callgraph_suite;

use callgraph_suite::{Suite, score_suite};

/// Each suite is held to what it measured when it was added, a hair below (less than one
/// edge): a change that loses a right edge or adds a wrong one fails. A change that gains
/// edges raises its suite's line here.
const GATES: &[(&str, f64, f64)] = &[
    // Blind before any fix: 182 of 204 right, 182 of 332 found. After the resolver work of
    // issue 22 (written from the construct list, without this suite): 290 of 302, 290 of 332.
    // After rounds 2-4's fixes: 321 of 326 right, 321 of 332 found; with accessors read
    // across modules: 323 of 328, 323 of 332.
    // With round 6's fixes, part A (class prototypes, element callbacks, class fields,
    // one round of parameter flow, arrows' expression bodies): 324 of 329, 324 of 332.
    // With part B too (assigned functions keep their scope, late literal members, pattern
    // defaults, `call`/`apply` this, listeners' arguments, decorators' descriptors, type
    // arguments) and parameter values memoized per unit: 324 of 329, 324 of 332.
    // With functions pushed into lists a table held by a name keeps by key
    // (`(handlers[name] ||= []).push(fn)`): 325 of 330, 325 of 332.
    // With jsfix7a's (anonymous functions passed as arguments are values, prototype and
    // class-expression mixins, sort comparators): 325 of 329, 325 of 332.
    // With jsfix7a and jsfix7b merged: 326 of 330, 326 of 332.
    ("tests/jscg-blind1/javascript", 0.9875, 0.9815),
    // Blind before any fix: 144 of 154, 144 of 227. After the construct-list work: 201 of 203,
    // 201 of 227; after rounds 2-4's fixes: 221 of 223 right, 221 of 227 found (a table of
    // handlers called with a run-time key reaches every member: `objects/typed_object_literal`
    // runs one of them, and `optional_chaining/non_null_assertion` asks for a key it lacks).
    // With accessors read across modules: 223 of 225 right, 223 of 227 found.
    // With round 6's fixes, part A (class prototypes, element callbacks, class fields,
    // one round of parameter flow, arrows' expression bodies): 225 of 227, 225 of 227.
    // With part B too (assigned functions keep their scope, late literal members, pattern
    // defaults, `call`/`apply` this, listeners' arguments, decorators' descriptors, type
    // arguments) and parameter values memoized per unit: 225 of 227, 225 of 227.
    // With jsfix7a and jsfix7b merged: 225 of 227, 225 of 227.
    ("tests/jscg-blind1/typescript", 0.9910, 0.9910),
    // Round 2, measured blind after the construct-list work: 311 of 329 right, 311 of 446
    // found. After its fixes and later rounds' (and two cases re-recorded with the oracle's
    // naming of assignments to outer variables): 393 of 401 right, 393 of 444 found; with
    // accessors read across modules: 395 of 403, 395 of 444.
    // With round 6's fixes, part A (class prototypes, element callbacks, class fields,
    // one round of parameter flow, arrows' expression bodies): 406 of 414, 406 of 444.
    // With part B too (assigned functions keep their scope, late literal members, pattern
    // defaults, `call`/`apply` this, listeners' arguments, decorators' descriptors, type
    // arguments) and parameter values memoized per unit: 407 of 415, 407 of 444.
    // With state objects handing the next state back to their context through its setter:
    // 408 of 416, 408 of 444.
    // With anonymous functions written as arguments taking the arguments they are called
    // with: 410 of 418, 410 of 444.
    // With a value put into one of two collections chosen at run time (`(c ? a : b).push(fn)`):
    // 414 of 422, 414 of 444.
    // With jsfix7a's (anonymous functions passed as arguments are values, prototype and
    // class-expression mixins, sort comparators): 411 of 419, 411 of 444.
    // With jsfix7a and jsfix7b merged: 416 of 424, 416 of 444.
    ("tests/jscg-blind2/javascript", 0.9810, 0.9365),
    // Round 2, measured blind: 283 of 306 right, 283 of 380 found. After its fixes and later
    // rounds': 357 of 365 right, 357 of 380 found (two wrong edges come with parameter
    // properties: a visitor's `a.left.accept` reaches every `Expr`, of which only `Num` ran).
    // With accessors read across modules: 360 of 368 right, 360 of 380 found.
    // With round 6's fixes, part A (class prototypes, element callbacks, class fields,
    // one round of parameter flow, arrows' expression bodies): 362 of 370, 362 of 380.
    // With part B too (assigned functions keep their scope, late literal members, pattern
    // defaults, `call`/`apply` this, listeners' arguments, decorators' descriptors, type
    // arguments) and parameter values memoized per unit: 363 of 371, 363 of 380.
    // With anonymous functions written as arguments taking the arguments they are called
    // with: 365 of 373, 365 of 380.
    // With the methods of an object literal no name binds taking arguments (whichever
    // method of the literal): 366 of 374, 366 of 380.
    // With functions pushed into lists a table held by a name keeps by key
    // (`(handlers[name] ||= []).push(fn)`): 367 of 375, 367 of 380.
    // With jsfix7a's (anonymous functions passed as arguments are values, prototype and
    // class-expression mixins, sort comparators): 367 of 374, 367 of 380.
    // With TypeScript parameters scoped to their function: 369 of 376, 369 of 380.
    // With jsfix7a and jsfix7b merged: 371 of 378, 371 of 380.
    ("tests/jscg-blind2/typescript", 0.9810, 0.9760),
    // Round 3, measured blind on the resolver before round 2's fixes: 403 of 420 right, 403 of
    // 544 found; blind again after round 2's fixes (nothing yet fixed from it): 480 of 486
    // right, 480 of 544 found. After its own fixes and round 4's: 503 of 505, 503 of 544;
    // with accessors across modules and ES5 inheritance: 507 of 509, 507 of 544.
    // With round 6's fixes, part A (class prototypes, element callbacks, class fields,
    // one round of parameter flow, arrows' expression bodies): 515 of 517, 515 of 544.
    // With part B too (assigned functions keep their scope, late literal members, pattern
    // defaults, `call`/`apply` this, listeners' arguments, decorators' descriptors, type
    // arguments) and parameter values memoized per unit: 517 of 519, 517 of 544.
    // With anonymous functions written as arguments taking the arguments they are called
    // with: 521 of 523, 521 of 544.
    // With functions kept in a table a field holds by a run-time key
    // (`this.handlers[name] = fn`): 523 of 525, 523 of 544.
    // With jsfix7a's (anonymous functions passed as arguments are values, prototype and
    // class-expression mixins, sort comparators): 524 of 526, 524 of 544.
    // With jsfix7a and jsfix7b merged: 528 of 530, 528 of 544.
    ("tests/jscg-blind3/javascript", 0.9960, 0.9705),
    // Round 3, the same way: 332 of 364 right, 332 of 469 found; after round 2's fixes: 415 of
    // 430 right, 415 of 469 found; after its own and round 4's: 432 of 443, 432 of 469; with
    // accessors read across modules: 440 of 451, 440 of 469.
    // With round 6's fixes, part A (class prototypes, element callbacks, class fields,
    // one round of parameter flow, arrows' expression bodies): 443 of 454, 443 of 469.
    // With part B too (assigned functions keep their scope, late literal members, pattern
    // defaults, `call`/`apply` this, listeners' arguments, decorators' descriptors, type
    // arguments) and parameter values memoized per unit: 447 of 455, 447 of 469.
    // With anonymous functions written as arguments taking the arguments they are called
    // with: 452 of 460, 452 of 469.
    // With the methods of an object literal no name binds taking arguments (whichever
    // method of the literal): 453 of 461, 453 of 469.
    // With jsfix7a's (anonymous functions passed as arguments are values, prototype and
    // class-expression mixins, sort comparators): 452 of 460, 452 of 469.
    // With jsfix7a and jsfix7b merged: 453 of 461, 453 of 469.
    ("tests/jscg-blind3/typescript", 0.9825, 0.9655),
    // Round 4, measured blind after round 3's first fixes: 311 of 314 right, 311 of 355 found;
    // blind again after all of rounds 1-3's fixes: 317 of 320 right, 317 of 355 found. After
    // its own fixes (field initialisers without a constructor, renderers of the repository's
    // JSX factory): 319 of 322 right, 319 of 355 found. With accessors across modules, ES5
    // inheritance and fluent `return this` on a known instance: 322 of 325, 322 of 355.
    // With round 6's fixes, part A (class prototypes, element callbacks, class fields,
    // one round of parameter flow, arrows' expression bodies): 327 of 330, 327 of 355.
    // With part B too (assigned functions keep their scope, late literal members, pattern
    // defaults, `call`/`apply` this, listeners' arguments, decorators' descriptors, type
    // arguments) and parameter values memoized per unit: 327 of 330, 327 of 355.
    // With a library emitter shared between modules through imports: 329 of 330, 329 of 355.
    // With anonymous functions written as arguments taking the arguments they are called
    // with: 332 of 333, 332 of 355.
    // With functions kept in a table a field holds by a run-time key
    // (`this.handlers[name] = fn`): 334 of 335, 334 of 355.
    // With jsfix7a's (anonymous functions passed as arguments are values, prototype and
    // class-expression mixins, sort comparators): 333 of 336, 333 of 355.
    // With jsfix7a and jsfix7b merged: 337 of 338, 337 of 355.
    ("tests/jscg-blind4/javascript", 0.9970, 0.9490),
    // Round 4, blind: 292 of 298 right, 292 of 330 found (both times). After its own fixes:
    // 306 of 309 right, 306 of 330 found; with accessors read across modules: 310 of 313,
    // 310 of 330.
    // With round 6's fixes, part A (class prototypes, element callbacks, class fields,
    // one round of parameter flow, arrows' expression bodies): 317 of 320, 317 of 330.
    // With part B too (assigned functions keep their scope, late literal members, pattern
    // defaults, `call`/`apply` this, listeners' arguments, decorators' descriptors, type
    // arguments) and parameter values memoized per unit: 318 of 321, 318 of 330.
    // With anonymous functions written as arguments taking the arguments they are called
    // with: 320 of 323, 320 of 330.
    // With jsfix7a's (anonymous functions passed as arguments are values, prototype and
    // class-expression mixins, sort comparators): 320 of 323, 320 of 330.
    // With jsfix7a's (anonymous functions passed as arguments are values, class and parameter
    // decorator factories' results called where the class is defined): 322 of 325, 322 of 330.
    // With jsfix7a and jsfix7b merged: 322 of 325, 322 of 330.
    ("tests/jscg-blind4/typescript", 0.9905, 0.9755),
    // Round 5, measured blind after rounds 1-4's fixes: 283 of 290 right, 283 of 304 found.
    // With round 6's fixes, part A (class prototypes, element callbacks, class fields,
    // one round of parameter flow, arrows' expression bodies): 288 of 295, 288 of 304.
    // With part B too (assigned functions keep their scope, late literal members, pattern
    // defaults, `call`/`apply` this, listeners' arguments, decorators' descriptors, type
    // arguments) and parameter values memoized per unit: 288 of 295, 288 of 304.
    // With emitter classes firing an event named at run time: 291 of 295, 291 of 304.
    // With anonymous functions written as arguments taking the arguments they are called
    // with: 294 of 298, 294 of 304.
    // With jsfix7a's (anonymous functions passed as arguments are values, prototype and
    // class-expression mixins, sort comparators): 294 of 301, 294 of 304.
    // With jsfix7a and jsfix7b merged: 297 of 301, 297 of 304.
    ("tests/jscg-blind5/javascript", 0.9865, 0.9765),
    // Round 5, the same way: 275 of 281 right, 275 of 300 found.
    // With round 6's fixes, part A (class prototypes, element callbacks, class fields,
    // one round of parameter flow, arrows' expression bodies): 284 of 290, 284 of 300.
    // With part B too (assigned functions keep their scope, late literal members, pattern
    // defaults, `call`/`apply` this, listeners' arguments, decorators' descriptors, type
    // arguments) and parameter values memoized per unit: 287 of 292, 287 of 300.
    // With jsfix7a's (anonymous functions passed as arguments are values, TypeScript
    // parameters scoped to their function): 290 of 295, 290 of 300; with the parameters of
    // signatures without a body bound nowhere: 293 of 298, 293 of 300.
    // With jsfix7a and jsfix7b merged: 293 of 298, 293 of 300.
    ("tests/jscg-blind5/typescript", 0.9830, 0.9765),
    // Round 6, measured blind after rounds 1-5's fixes: 370 of 375 right, 370 of 429 found.
    // With round 6's fixes, part A (class prototypes, element callbacks, class fields,
    // one round of parameter flow, arrows' expression bodies): 394 of 399, 394 of 429.
    // With part B too (assigned functions keep their scope, late literal members, pattern
    // defaults, `call`/`apply` this, listeners' arguments, decorators' descriptors, type
    // arguments) and parameter values memoized per unit: 400 of 403, 400 of 429.
    // With state objects handing the next state back to their context through its setter:
    // 413 of 416, 413 of 429.
    // With anonymous functions written as arguments taking the arguments they are called
    // with: 415 of 418, 415 of 429.
    // With the methods of an object literal no name binds taking arguments (whichever
    // method of the literal): 416 of 419, 416 of 429.
    // With jsfix7a's (anonymous functions passed as arguments are values, prototype and
    // class-expression mixins, sort comparators): 402 of 405, 402 of 429.
    // With jsfix7a and jsfix7b merged: 416 of 419, 416 of 429.
    ("tests/jscg-blind6/javascript", 0.9925, 0.9695),
    // Round 6, the same way: 418 of 419 right, 418 of 433 found.
    // With round 6's fixes, part A (class prototypes, element callbacks, class fields,
    // one round of parameter flow, arrows' expression bodies): 422 of 423, 422 of 433.
    // With part B too (assigned functions keep their scope, late literal members, pattern
    // defaults, `call`/`apply` this, listeners' arguments, decorators' descriptors, type
    // arguments) and parameter values memoized per unit: 427 of 427, 427 of 433.
    // With the methods of an object literal no name binds taking arguments (whichever
    // method of the literal): 428 of 428, 428 of 433.
    // With jsfix7a and jsfix7b merged: 428 of 428, 428 of 433.
    ("tests/jscg-blind6/typescript", 0.9995, 0.9880),
    // Round 7, measured blind after rounds 1-6's fixes (16:45 UTC, 27 November, on main at
    // 8479547): 419 of 424 right, 419 of 443 found.
    // With jsfix7a and jsfix7b merged (fixes from rounds 1-6 only, none from round 7): 421 of 426, 421 of 443.
    ("tests/jscg-blind7/javascript", 0.9880, 0.9500),
    // Round 7, the same way: 375 of 379 right, 375 of 389 found.
    // With jsfix7a and jsfix7b merged (fixes from rounds 1-6 only, none from round 7): 376 of 380, 376 of 389.
    // With getters and setters followed on a call's result (`sheet.get("A1").display`), the
    // first fix from round 7: 378 of 382, 378 of 389.
    ("tests/jscg-blind7/typescript", 0.9890, 0.9715),
];

const SUITE: Suite = Suite {
    gates: GATES,
    scored: callgraph_suite::own_edges,
    problems_fail: false,
};

/// Round 1: 92 JavaScript programs written blind (without reading the resolver), their
/// graphs recorded by the oracle.
#[test]
fn jscg_blind1_javascript_suite() {
    score_suite(&SUITE, "tests/jscg-blind1/javascript");
}

/// Round 1: 63 TypeScript programs written blind, their graphs recorded by the oracle.
#[test]
fn jscg_blind1_typescript_suite() {
    score_suite(&SUITE, "tests/jscg-blind1/typescript");
}

/// Round 2: 79 JavaScript programs shaped like real projects' code (routers, stores, ORMs,
/// plugin registries, …), written blind after round 1, their graphs recorded by the oracle.
#[test]
fn jscg_blind2_javascript_suite() {
    score_suite(&SUITE, "tests/jscg-blind2/javascript");
}

/// Round 2: 61 TypeScript and TSX programs written blind after round 1.
#[test]
fn jscg_blind2_typescript_suite() {
    score_suite(&SUITE, "tests/jscg-blind2/typescript");
}

/// Round 3: 54 JavaScript programs, two thirds of them everyday multi-file code (services,
/// stores, parsers, queues, games, test helpers), written blind after rounds 1 and 2 were
/// used to fix the resolver.
#[test]
fn jscg_blind3_javascript_suite() {
    score_suite(&SUITE, "tests/jscg-blind3/javascript");
}

/// Round 3: 45 TypeScript programs, 9 of them TSX, written blind like the JavaScript ones.
#[test]
fn jscg_blind3_typescript_suite() {
    score_suite(&SUITE, "tests/jscg-blind3/typescript");
}

/// Round 4: 40 JavaScript programs (a Koa-style router, Fastify-like plugins, a rate limiter,
/// feature flags, CLIs, games, parsers, stores), written blind after rounds 1-3 were used to
/// fix the resolver.
#[test]
fn jscg_blind4_javascript_suite() {
    score_suite(&SUITE, "tests/jscg-blind4/javascript");
}

/// Round 4: 32 TypeScript programs, 6 of them TSX, written blind like the JavaScript ones.
#[test]
fn jscg_blind4_typescript_suite() {
    score_suite(&SUITE, "tests/jscg-blind4/typescript");
}

/// Round 5: 32 JavaScript programs (an HTTP client with interceptors, a spreadsheet evaluator, a
/// crawler, a cron scheduler, games, an offline queue, RBAC, …), written blind after rounds 1-4
/// were used to fix the resolver.
#[test]
fn jscg_blind5_javascript_suite() {
    score_suite(&SUITE, "tests/jscg-blind5/javascript");
}

/// Round 5: 31 TypeScript programs, 6 of them TSX, written blind like the JavaScript ones.
#[test]
fn jscg_blind5_typescript_suite() {
    score_suite(&SUITE, "tests/jscg-blind5/typescript");
}

/// Round 6: 35 JavaScript programs (a notes API, a circuit breaker, a markdown converter with
/// plugins, chess moves, a build tool's task graph, a playlist, a Pratt parser, …), written
/// blind after rounds 1-5 were used to fix the resolver.
#[test]
fn jscg_blind6_javascript_suite() {
    score_suite(&SUITE, "tests/jscg-blind6/javascript");
}

/// Round 6: 31 TypeScript programs, 7 of them TSX, written blind like the JavaScript ones.
#[test]
fn jscg_blind6_typescript_suite() {
    score_suite(&SUITE, "tests/jscg-blind6/typescript");
}

/// Round 7: 35 JavaScript programs (a static site generator, a pub/sub broker with wildcards,
/// a bank ledger, a Pratt-parser calculator, a semver resolver, a file-sync differ, an elevator
/// simulation, a plugin linter, …), written blind after rounds 1-6 were used to fix the
/// resolver.
#[test]
fn jscg_blind7_javascript_suite() {
    score_suite(&SUITE, "tests/jscg-blind7/javascript");
}

/// Round 7: 32 TypeScript programs, 6 of them TSX, written blind like the JavaScript ones.
#[test]
fn jscg_blind7_typescript_suite() {
    score_suite(&SUITE, "tests/jscg-blind7/typescript");
}
