//! A short list of plain values held inline: a puzzle's themes and the
//! moves its fires are judged on number a handful, and a list of them in a
//! puzzle's analysis then costs no allocation. A longer one goes on the heap.

use std::ops::Deref;

/// Up to `N` values inline, any more on the heap; reads as a slice.
#[derive(Clone)]
pub struct InlineVec<T: Copy, const N: usize>(Held<T, N>);

#[derive(Clone)]
enum Held<T: Copy, const N: usize> {
    Inline {
        len: u8,
        items: [T; N],
    },
    /// Empty (no allocation) or longer than `N`.
    Heap(Vec<T>),
}

impl<T: Copy, const N: usize> InlineVec<T, N> {
    const FITS: () = assert!(N <= u8::MAX as usize);

    /// Appends `item`: in place where the inline room has space (inlined
    /// at the caller), otherwise by `push_cold`.
    #[inline]
    pub fn push(&mut self, item: T) {
        let () = Self::FITS;
        match &mut self.0 {
            Held::Inline { len, items } if usize::from(*len) < N => {
                items[usize::from(*len)] = item;
                *len += 1;
            }
            _ => self.push_cold(item),
        }
    }

    /// The first item, or one past the inline room.
    #[inline(never)]
    fn push_cold(&mut self, item: T) {
        match &mut self.0 {
            Held::Inline { items, .. } => {
                let mut spilled = items.to_vec();
                spilled.push(item);
                self.0 = Held::Heap(spilled);
            }
            // The first item fills the inline array (no value of `T` is
            // needed before there is one).
            Held::Heap(items) if items.is_empty() && N > 0 => self.0 = Held::Inline { len: 1, items: [item; N] },
            Held::Heap(items) => items.push(item),
        }
    }
}

impl<T: Copy, const N: usize> Default for InlineVec<T, N> {
    fn default() -> Self {
        InlineVec(Held::Heap(Vec::new()))
    }
}

impl<T: Copy, const N: usize> Deref for InlineVec<T, N> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match &self.0 {
            Held::Inline { len, items } => &items[..usize::from(*len)],
            Held::Heap(items) => items,
        }
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq for InlineVec<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Eq, const N: usize> Eq for InlineVec<T, N> {}

impl<T: Copy + std::fmt::Debug, const N: usize> std::fmt::Debug for InlineVec<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for InlineVec<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = InlineVec::default();
        for item in iter {
            list.push(item);
        }
        list
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a InlineVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy, const N: usize> IntoIterator for InlineVec<T, N> {
    type Item = T;
    type IntoIter = IntoIter<T, N>;

    fn into_iter(self) -> IntoIter<T, N> {
        IntoIter { list: self, next: 0 }
    }
}

/// An [`InlineVec`]'s values, by value.
pub struct IntoIter<T: Copy, const N: usize> {
    list: InlineVec<T, N>,
    next: usize,
}

impl<T: Copy, const N: usize> Iterator for IntoIter<T, N> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let item = self.list.get(self.next).copied()?;
        self.next += 1;
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pushed one by one past the inline room, or collected, it holds what
    /// a Vec holds, in order.
    #[test]
    fn holds_what_a_vec_holds() {
        for n in 0..10u32 {
            let mut pushed: InlineVec<u32, 3> = InlineVec::default();
            let mut vec = Vec::new();
            for i in 0..n {
                pushed.push(i * 7);
                vec.push(i * 7);
                assert_eq!(*pushed, *vec);
            }
            let collected: InlineVec<u32, 3> = vec.iter().copied().collect();
            assert_eq!(collected, pushed);
            assert_eq!(collected.into_iter().collect::<Vec<_>>(), vec);
            assert_eq!((&pushed).into_iter().copied().collect::<Vec<_>>(), vec);
        }
    }
}
