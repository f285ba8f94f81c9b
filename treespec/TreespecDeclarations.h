//===- TreespecDeclarations.h - Pytree types declared in text ---*- C++ -*-===//
//
// The text format of `pt2-opt --treespec-types=FILE`: one declaration a
// line, blank lines and `#` comments (whole-line or trailing) ignored:
//
//   type mymod.MyContainer                      custom node, string context
//   type mymod.Stack embedded-context           custom node, context embedded
//                                               as a JSON value (a codec)
//   dataclass mymod.Config x,mask               register_dataclass
//   dataclass mymod.Opt lr,beta return-none-fields
//   namedtuple mymod.Point x,y
//
// Field lists are comma separated (spaces after the commas are allowed);
// field names are Python identifiers. Each declaration is registered in a
// TreespecTypeRegistry with registerType / registerDataclass /
// registerNamedtuple, so the library's rules apply (fully qualified names,
// no name declared twice except a namedtuple with the same fields).
//
// This file does not read files; callers hand it the text and its name.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TREESPEC_TREESPECDECLARATIONS_H
#define PT2IR_TREESPEC_TREESPECDECLARATIONS_H

#include "pt2ir/treespec/TreespecRegistry.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace pt2ir {

/// Registers every declaration of `text` (the format above) in `registry`,
/// in order. Stops at the first bad line with an error
/// `<fileName>:<line>: error: <what is wrong>`; the declarations before it
/// stay registered.
llvm::Error registerTreespecDeclarations(llvm::StringRef text,
                                         llvm::StringRef fileName,
                                         TreespecTypeRegistry &registry);

} // namespace pt2ir

#endif
