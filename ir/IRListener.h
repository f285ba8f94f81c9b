//===- IRListener.h - Told when nodes and graphs go away --------*- C++ -*-===//
//
// Code that keeps raw pointers into a program across rewrites it does not
// control (the Python bindings' node and value handles, which live as long
// as Python objects do) needs to know when the objects behind them are
// deleted: passes erase nodes, and erasing a higher-order node destroys its
// subgraphs. An IRListener set on a program's IRContext is told just before
// that happens, while the objects are still whole.
//
// It is not told about creation, moves or changes of arguments: those leave
// pointers valid. One listener per context; nothing is locked.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_IR_IRLISTENER_H
#define PT2IR_IR_IRLISTENER_H

namespace pt2ir {

class Graph;
class Node;

/// See the file comment.
class IRListener {
public:
  virtual ~IRListener();
  /// `node` is about to be erased from its graph (Graph::eraseNode). Its
  /// values stay allocated, marked not live, until the graph is destroyed.
  virtual void nodeErased(const Node &node) = 0;
  /// `graph` is about to be destroyed, with every node and value it holds.
  virtual void graphDestroyed(const Graph &graph) = 0;
};

} // namespace pt2ir

#endif
