/* vec.h - the one growable array, for every list that grows one item at a
 * time: a typed struct of pointer, length and capacity, grown geometrically. */

/*
 *   ca_vec(int) v = CA_VEC_INIT;
 *   *ca_vec_push(&v) = 42;          grows when full; never fails (exits on OOM)
 *   for (size_t i = 0; i < v.n; i++) use(v.at[i]);
 *   ca_vec_free(&v);
 *
 * Growth checks the size for overflow. Pointers into at[] are valid until
 * the next push or reserve, and the macros evaluate V more than once.
 */
#ifndef CA_VEC_H
#define CA_VEC_H

#include <stddef.h>
#include <stdlib.h>

#define ca_vec(T) struct { T *at; size_t n, cap; }
#define CA_VEC_INIT { NULL, 0, 0 }

/* Make room for need items of size sz in *p (capacity *cap): at least
 * doubling, at least 8; returns the (moved) array. */
void *ca_vec_grow_(void *p, size_t *cap, size_t need, size_t sz);

#define ca_vec_reserve(V, need) \
	((size_t)(need) > (V)->cap ? \
	    (void)((V)->at = ca_vec_grow_((V)->at, &(V)->cap, (need), sizeof *(V)->at)) : (void)0)
/* A pointer to a new last item (not initialised). */
#define ca_vec_push(V) (ca_vec_reserve((V), (V)->n + 1), &(V)->at[(V)->n++])
#define ca_vec_pop(V) ((V)->at[--(V)->n])
#define ca_vec_last(V) ((V)->at[(V)->n - 1])
#define ca_vec_free(V) (free((V)->at), (V)->at = NULL, (V)->n = (V)->cap = 0)
/* Give back the unused room (for arrays kept long after they are built). */
#define ca_vec_trim(V) \
	((V)->n < (V)->cap ? (void)((V)->at = ca_vec_shrink_((V)->at, &(V)->cap, (V)->n, \
	    sizeof *(V)->at)) : (void)0)
void *ca_vec_shrink_(void *p, size_t *cap, size_t n, size_t sz);

#endif
