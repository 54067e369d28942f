// SPDX-License-Identifier: Apache-2.0
// The one unit of the targets that build the tests' precompiled headers (tests/CMakeLists.txt). It
// has no code of its own: the precompiled header is what the target is for.
