"""Everything that reads or writes git or the caches under `.git/`: trees and blobs, commits and
refs with compare-and-swap, notes, the work tree and the index, the snapshot's storage, publish."""
