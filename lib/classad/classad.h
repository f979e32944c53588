/* classad.h - the public interface of the ClassAd core: everything the
 * HTCondor layer (lib/condor/) and the programs may use of it. */

/*
 * The core knows nothing of HTCondor's daemons.
 *
 * Read the headers in this order (each starts with what it is for):
 *   arena.h     bump allocation: the memory of an ad or of an evaluation
 *   strbuf.h    the one growable string
 *   dict.h      the one hash table;  vec.h  the one growable array
 *   diag.h      the one diagnostic (place, message, exit status)
 *   value.h     values, with THE OWNERSHIP RULE at its top; three-valued logic
 *   ad.h        ads and interned attribute names
 *   node.h      the nodes of expression trees and the operator tokens
 *   expr.h      whole trees: deep copies (with nested ads), identity, hashing
 *   parser.h    text to trees and ads
 *   eval.h      evaluation with HTCondor's semantics, where names resolve;
 *               the flat form
 *   attr.h      typed attributes: set a plain value, read a number or string
 *   builtins.h  the table of builtin functions
 *   print.h     trees, values and ads back to text
 *   explain.h   why an expression has its value
 *   reader.h, writer.h   ad streams in the long, new, JSON and XML formats
 * The other headers of lib/classad/ are private to the core.
 */
#ifndef CLASSAD_H
#define CLASSAD_H

#include "arena.h"
#include "strbuf.h"
#include "vec.h"
#include "dict.h"
#include "diag.h"
#include "value.h"
#include "ad.h"
#include "node.h"
#include "expr.h"
#include "parser.h"
#include "eval.h"
#include "attr.h"
#include "builtins.h"
#include "print.h"
#include "explain.h"
#include "reader.h"
#include "writer.h"

#endif
