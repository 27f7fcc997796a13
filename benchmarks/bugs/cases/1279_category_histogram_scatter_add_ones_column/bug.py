import torch
import torch.nn as nn


def category_histogram(clicked_item_ids: torch.Tensor, item_category: torch.Tensor, num_categories: int) -> torch.Tensor:
    """Normalised distribution of a user's recent clicks over item categories.

    Args:
        clicked_item_ids: (B, K) ids of the K most recent clicked items per user.
        item_category: (num_items,) category id of every item.
        num_categories: number of categories C.
    Returns:
        (B, C) click share per category.
    """
    cats = item_category[clicked_item_ids]
    counts = torch.zeros(clicked_item_ids.shape[0], num_categories)
    counts.scatter_add_(1, cats, torch.ones(clicked_item_ids.shape[0], 1))
    return counts / counts.sum(dim=1, keepdim=True)


class InterestRanker(nn.Module):
    """Scores candidate items from the user's category-interest histogram.

    Args:
        num_categories: C.
        dim: embedding size D.
    """

    def __init__(self, num_categories: int, dim: int):
        super().__init__()
        self.user_proj = nn.Linear(num_categories, dim)
        self.category_emb = nn.Embedding(num_categories, dim)

    def forward(self, histogram: torch.Tensor, candidate_categories: torch.Tensor) -> torch.Tensor:
        """histogram: (B, C); candidate_categories: (B, M) -> scores (B, M)"""
        user = self.user_proj(histogram)
        cand = self.category_emb(candidate_categories)
        return (cand * user.unsqueeze(1)).sum(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    item_category = torch.randint(0, 5, (30,))
    clicks = torch.randint(0, 30, (4, 6))
    hist = category_histogram(clicks, item_category, num_categories=5)
    ranker = InterestRanker(num_categories=5, dim=8)
    print(ranker(hist, torch.randint(0, 5, (4, 3))))
