/* prog.c - the flat form of an expression (ca_prog): compiled once, then run
 * against many ads in one loop, with the tree evaluator's semantics. */

/*
 * An expression is compiled into a sequence of instructions over a small
 * value stack, for loops that evaluate it against many ads. Operators,
 * literals, attribute references, ?:, ?: (Elvis), && and || run in one loop
 * without recursion; every other node (calls, selections, subscripts, lists,
 * nested ads) and every attribute whose definition is not a literal is
 * evaluated by ca_eval. Nesting depth and steps are counted exactly as the
 * tree evaluator counts them, so both give the same values, errors included.
 */

#include <stdlib.h>
#include <string.h>

#include "eval_int.h"
#include "vec.h"

enum {
	P_LIT,		/* push u.lit */
	P_REF,		/* push the value of the reference u.node (MY.x, .x) */
	P_REF_TARGET,	/* the same for TARGET.x and OTHER.x */
	P_REF_SELF,	/* the same for an unscoped x */
	P_NODE,		/* push ca_eval(u.node) */
	P_UNARY,	/* top = op top */
	P_BINARY,	/* pop b; top = top op b */
	P_BINARY_LIT,	/* top = top op u.lit (the literal counts a step) */
	P_LOGIC,	/* && or || after its left side: decide and jump, or go on */
	P_LOGIC_END,	/* pop right; top = left op right (left undefined or neutral) */
	P_COND,		/* ?: after its condition: error/undefined jump to `end`,
			 * false to `to`, true goes on (the condition popped) */
	P_JUMP,		/* to `to` */
	P_ELVIS,	/* ?: after its left side: defined jumps to `to`, else pop */
	P_END		/* the value is on top */
};

#define PROG_STACK 48	/* deeper expressions keep to the tree evaluator */

struct ca_pins {
	uint8_t code;
	uint8_t op;		/* operator token; for P_LOGIC 1 for && */
	uint16_t depth;		/* non-parenthesis nodes above this one */
	uint32_t to, end;	/* jump targets */
	union {
		ca_value lit;
		const ca_expr *node;
	} u;
};

struct ca_prog {
	const ca_expr *tree;
	uint32_t n;		/* 0: evaluate the tree instead */
	struct ca_pins ins[];
};

typedef ca_vec(struct ca_pins) code;	/* a program being compiled */

static uint32_t
emit(code *p, int op_code, int op, int depth)
{
	struct ca_pins *i = ca_vec_push(p);

	memset(i, 0, sizeof *i);
	i->code = (uint8_t)op_code;
	i->op = (uint8_t)op;
	i->depth = (uint16_t)depth;
	return (uint32_t)(p->n - 1);
}

/* Append the code of e at nesting depth; sp is the stack height before it.
 * Returns 0 when e is too deep for the flat form. */
static int
compile(code *p, const ca_expr *e, int depth, int sp)
{
	while (e->node == CA_N_PAREN)
		e = e->u.k.a;
	if (depth >= CA_EVAL_MAX_DEPTH || sp >= PROG_STACK)
		return 0;
	const ca_expr *b;
	uint32_t at, mid;
	switch (e->node) {
	case CA_N_LIT:
		at = emit(p, P_LIT, 0, depth);
		p->at[at].u.lit = e->u.lit;
		return 1;
	case CA_N_ATTR:
		at = emit(p, e->op == CA_SC_TARGET || e->op == CA_SC_OTHER ? P_REF_TARGET :
		    e->op == CA_SC_NONE ? P_REF_SELF : P_REF, 0, depth);
		p->at[at].u.node = e;
		return 1;
	case CA_N_UNARY:
		if (!compile(p, e->u.k.a, depth + 1, sp))
			return 0;
		emit(p, P_UNARY, e->op, depth);
		return 1;
	case CA_N_BINARY:
		if (!compile(p, e->u.k.a, depth + 1, sp))
			return 0;
		if (e->op == CA_T_AND || e->op == CA_T_OR) {
			at = emit(p, P_LOGIC, e->op == CA_T_AND, depth);
			if (!compile(p, e->u.k.b, depth + 1, sp + 1))
				return 0;
			emit(p, P_LOGIC_END, e->op == CA_T_AND, depth);
			p->at[at].to = p->n;
			return 1;
		}
		b = e->u.k.b;
		while (b->node == CA_N_PAREN)
			b = b->u.k.a;
		if (b->node == CA_N_LIT) {	/* the common x op constant */
			at = emit(p, P_BINARY_LIT, e->op, depth);
			p->at[at].u.lit = b->u.lit;
			return 1;
		}
		if (!compile(p, b, depth + 1, sp + 1))
			return 0;
		emit(p, P_BINARY, e->op, depth);
		return 1;
	case CA_N_COND:
		if (!compile(p, e->u.k.a, depth + 1, sp))
			return 0;
		at = emit(p, P_COND, 0, depth);
		if (!compile(p, e->u.k.b, depth + 1, sp))
			return 0;
		mid = emit(p, P_JUMP, 0, depth);
		p->at[at].to = p->n;
		if (!compile(p, e->u.k.c, depth + 1, sp))
			return 0;
		p->at[mid].to = p->at[at].end = p->n;
		return 1;
	case CA_N_ELVIS:
		if (!compile(p, e->u.k.a, depth + 1, sp))
			return 0;
		at = emit(p, P_ELVIS, 0, depth);
		if (!compile(p, e->u.k.b, depth + 1, sp))
			return 0;
		p->at[at].to = p->n;
		return 1;
	default:
		at = emit(p, P_NODE, 0, depth);
		p->at[at].u.node = e;
		return 1;
	}
}

ca_prog *
ca_prog_new(ca_arena *a, const ca_expr *e)
{
	code c = CA_VEC_INIT;
	ca_prog *p;

	if (compile(&c, e, 0, 0)) {
		emit(&c, P_END, 0, 0);
		p = ca_arena_alloc(a, sizeof *p + c.n * sizeof *c.at);
		memcpy(p->ins, c.at, c.n * sizeof *c.at);
		p->n = (uint32_t)c.n;
	} else {
		p = ca_arena_alloc(a, sizeof *p);
		p->n = 0;
	}
	p->tree = e;
	ca_vec_free(&c);
	return p;
}

ca_value
ca_prog_eval(ca_ctx *cx, const ca_prog *p, const ca_ad *my, const ca_ad *target)
{
	if (p->n == 0 || cx->trace != NULL)
		return ca_eval_expr(cx, p->tree, my, target);
	if (my == NULL)
		my = cx->empty;
	ca_frame f = { my, NULL, my, target };
	ca_value st[PROG_STACK + 1], *sp = st;	/* sp[-1] is the top */
	const struct ca_pins *ins = p->ins, *i = ins;
	int t;

	eval_start(cx);
	for (;;) {
		switch (i->code) {
		case P_LIT:
			cx->steps++;
			*sp++ = i->u.lit;
			break;
		case P_REF_TARGET:
			cx->steps++;
			*sp++ = eval_ref(cx, CA_SC_TARGET, i->u.node->u.attr.name, &f, i->depth + 1);
			break;
		case P_REF_SELF:
			cx->steps++;
			*sp++ = eval_ref(cx, CA_SC_NONE, i->u.node->u.attr.name, &f, i->depth + 1);
			break;
		case P_REF:
			cx->steps++;
			*sp++ = eval_ref(cx, i->u.node->op, i->u.node->u.attr.name, &f, i->depth + 1);
			break;
		case P_NODE:
			cx->depth = i->depth;
			*sp++ = ca_eval(cx, i->u.node, &f);
			break;
		case P_UNARY:
			cx->steps++;
			sp[-1] = unop(i->op, sp[-1]);
			break;
		case P_BINARY: {
			cx->steps++;
			ca_value b = *--sp;
			int r = fast_compare(i->op, sp[-1], b);
			sp[-1] = r >= 0 ? ca_bool(r) : ca_eval_binop(cx, i->op, sp[-1], b);
			break;
		}
		case P_BINARY_LIT: {
			cx->steps += 2;
			int r = fast_compare(i->op, sp[-1], i->u.lit);
			sp[-1] = r >= 0 ? ca_bool(r) : ca_eval_binop(cx, i->op, sp[-1], i->u.lit);
			break;
		}
		case P_LOGIC:
			cx->steps++;
			if (!ca_logic_left(i->op, sp[-1], &sp[-1]))
				break;
			i = ins + i->to;
			continue;
		case P_LOGIC_END: {
			ca_value r = *--sp;
			sp[-1] = ca_logic_right(i->op, sp[-1], r);
			break;
		}
		case P_COND:
			cx->steps++;
			if (sp[-1].kind == CA_ERROR || sp[-1].kind == CA_UNDEFINED) {
				i = ins + i->end;
				continue;
			}
			if ((t = ca_value_truth(sp[-1])) < 0) {
				sp[-1] = ca_error("condition of '?:' is not a boolean");
				i = ins + i->end;
				continue;
			}
			sp--;
			if (!t) {
				i = ins + i->to;
				continue;
			}
			break;
		case P_JUMP:
			i = ins + i->to;
			continue;
		case P_ELVIS:
			cx->steps++;
			if (sp[-1].kind != CA_UNDEFINED) {
				i = ins + i->to;
				continue;
			}
			sp--;
			break;
		case P_END:
			cx->depth = 0;
			return top_value(cx, sp[-1]);
		default:
			__builtin_unreachable();
		}
		i++;
	}
}
