//! The whole graph of a small program, as JSON, is a reviewed snapshot.
#![allow(clippy::unwrap_used)]

#[test]
fn graph_json_of_a_small_package() {
    let g = easel_codegraph::graph_from_sources(&[
        ("shop/__init__.py", "from .cart import Cart\n"),
        (
            "shop/cart.py",
            "import logging\n\nclass Base:\n    def total(self):\n        return self.sum()\n\nclass Cart(Base):\n    def __init__(self):\n        self.items = []\n\n    def sum(self):\n        return len(self.items)\n\n    def add(self, item):\n        logging.info(item)\n        self.items.append(item)\n",
        ),
        ("main.py", "from shop import Cart\n\ncart = Cart()\ncart.add(1)\nprint(cart.total())\n"),
    ])
    .unwrap();
    insta::assert_json_snapshot!(g);
}
