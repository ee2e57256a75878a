//! A value derived from a model's own data, kept inside the model so that a
//! picture redrawn at every step does not derive it again. It is not state:
//! models compare equal whether or not it is filled, share links never carry
//! it, and it is keyed, so a changed key derives the value afresh.

use std::fmt;
use std::sync::Mutex;

pub struct Memo<K, V>(Mutex<Option<(K, V)>>);

impl<K: PartialEq + Clone, V: Clone> Memo<K, V> {
    /// The value for `key`: the kept one if it was made for an equal key,
    /// else `make()`'s, which is then kept.
    pub fn get(&self, key: &K, make: impl FnOnce() -> V) -> V {
        if let Ok(kept) = self.0.lock() {
            if let Some((k, v)) = kept.as_ref() {
                if k == key {
                    return v.clone();
                }
            }
        }
        let value = make();
        if let Ok(mut kept) = self.0.lock() {
            *kept = Some((key.clone(), value.clone()));
        }
        value
    }
}

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo(Mutex::new(None))
    }
}

impl<K: Clone, V: Clone> Clone for Memo<K, V> {
    fn clone(&self) -> Self {
        Memo(Mutex::new(self.0.lock().ok().and_then(|kept| kept.clone())))
    }
}

/// Not state: every memo equals every other.
impl<K, V> PartialEq for Memo<K, V> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<K, V> Eq for Memo<K, V> {}

impl<K, V> fmt::Debug for Memo<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Memo")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_value_is_made_once_per_key() {
        let memo: Memo<u32, String> = Memo::default();
        let made = Cell::new(0);
        let make = |k: u32| {
            made.set(made.get() + 1);
            format!("v{k}")
        };
        assert_eq!(memo.get(&1, || make(1)), "v1");
        assert_eq!(memo.get(&1, || make(1)), "v1");
        assert_eq!(made.get(), 1);
        assert_eq!(memo.get(&2, || make(2)), "v2");
        assert_eq!(made.get(), 2);
        // A clone keeps what was made; memos never make models unequal.
        assert_eq!(memo.clone().get(&2, || make(2)), "v2");
        assert_eq!(made.get(), 2);
        assert_eq!(memo, Memo::default());
    }
}
