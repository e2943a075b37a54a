package serial

import "sync"

// Keys serialises work per key. The zero value is ready to use; it holds an
// entry only while a key is locked or waited for.
type Keys[K comparable] struct {
	mu    sync.Mutex
	locks map[K]*entry
}

type entry struct {
	mu    sync.Mutex
	users int
}

// Lock waits until no other holder of key remains and returns the function
// that releases it.
func (k *Keys[K]) Lock(key K) (unlock func()) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = map[K]*entry{}
	}
	e := k.locks[key]
	if e == nil {
		e = &entry{}
		k.locks[key] = e
	}
	e.users++
	k.mu.Unlock()

	e.mu.Lock()
	return func() {
		e.mu.Unlock()
		k.mu.Lock()
		if e.users--; e.users == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
}
