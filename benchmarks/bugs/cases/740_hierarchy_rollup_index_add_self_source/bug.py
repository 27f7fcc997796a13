import torch


def rollup_to_parents(node_stats, parent):
    """Adds each node's statistics to its parent's row (one level of a category tree)."""
    totals = node_stats
    totals.index_add_(0, parent, node_stats)
    return totals


def category_report(leaf_sales, parent):
    stats = leaf_sales.clone()
    return rollup_to_parents(stats, parent)


if __name__ == "__main__":
    torch.manual_seed(0)
    # rows: 0 = root, 1..2 = departments, 3..6 = leaf categories
    parent = torch.tensor([0, 0, 0, 1, 1, 2, 2])
    sales = torch.zeros(7, 3)
    sales[3:] = torch.rand(4, 3) * 100
    report = category_report(sales, parent)
    print(report)
