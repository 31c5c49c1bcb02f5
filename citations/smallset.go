package citations

import "unsafe"

// smallSet is a set that keeps its first keys in an array, on the stack of
// the search that owns it (most quotes have one to three hits), and moves
// them to a map beyond.
type smallSet[K comparable] struct {
	n   int
	arr [8]K
	m   map[K]struct{}
}

// add adds k and reports whether it was not in the set.
func (s *smallSet[K]) add(k K) bool {
	if s.m != nil {
		if _, ok := s.m[k]; ok {
			return false
		}
		s.m[k] = struct{}{}
		return true
	}
	for _, x := range s.arr[:s.n] {
		if x == k {
			return false
		}
	}
	if s.n < len(s.arr) {
		s.arr[s.n] = k
		s.n++
		return true
	}
	s.m = make(map[K]struct{}, 4*len(s.arr))
	for _, x := range s.arr {
		s.m[x] = struct{}{}
	}
	s.m[k] = struct{}{}
	return true
}

// has reports whether k is in the set.
func (s *smallSet[K]) has(k K) bool {
	if s.m != nil {
		_, ok := s.m[k]
		return ok
	}
	for _, x := range s.arr[:s.n] {
		if x == k {
			return true
		}
	}
	return false
}

// bytesOf views s as bytes without copying it, for the lookups of a
// pattern, which never write to it.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
