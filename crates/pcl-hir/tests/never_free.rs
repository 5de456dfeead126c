//! `Name::never_free` is a one-way switch for the whole process, so it is tested in a test
//! binary of its own: names made before and after it stay equal by pointer, are found again,
//! and none is freed once copies of them are dropped.

use pcl_hir::Name;

#[test]
fn names_stay_interned_and_alive_once_never_freed() {
    let before = Name::new("zz_made_before_the_switch");
    let dropped_before = Name::new("zz_dropped_before_the_switch");
    drop(dropped_before);
    Name::never_free();
    let live = Name::live_count();
    let handles: Vec<Name> = (0..2_000)
        .map(|i| Name::new(&format!("zz_name_{}", i % 100)))
        .collect();
    let copies: Vec<Name> = handles.to_vec();
    for (a, b) in handles.iter().zip(&copies) {
        assert_eq!(a, b);
        assert_eq!(a.as_str(), b.as_str());
    }
    assert_eq!(Name::new("zz_name_7"), handles[7]);
    assert_eq!(Name::new("zz_made_before_the_switch"), before);
    // Other threads see the same names.
    let from_thread = std::thread::spawn(|| Name::new("zz_name_42"))
        .join()
        .unwrap();
    assert_eq!(from_thread, handles[42]);
    drop(copies);
    drop(handles);
    drop(before);
    // Nothing was freed: every name is still in the table, with its text.
    assert!(Name::live_count() >= live + 100);
    assert_eq!(Name::new("zz_name_99").as_str(), "zz_name_99");
    assert_eq!(
        Name::new("zz_made_before_the_switch").as_str(),
        "zz_made_before_the_switch"
    );
}
