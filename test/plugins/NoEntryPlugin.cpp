//===- NoEntryPlugin.cpp - A shared library that is not a pass plugin -----===//

extern "C" int pt2irSomethingElse() { return 42; }
