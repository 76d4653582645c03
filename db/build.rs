//! The migrations are embedded at compile time (`embed_migrations!`): a new migration folder
//! must rebuild the crate, which cargo would not otherwise know (no source file changed).

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
