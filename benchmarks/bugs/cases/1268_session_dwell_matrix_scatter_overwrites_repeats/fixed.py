import torch


def build_user_item_matrix(sessions, dwell, num_items):
    """Aggregate implicit feedback into a dense user-item confidence matrix.

    Args:
        sessions: LongTensor of shape (num_users, max_len) with clicked item ids,
            padded with item 0 (the padding item).
        dwell: FloatTensor of shape (num_users, max_len), seconds spent on each
            click; 0 at padding positions.
        num_items: number of items including the padding item.

    Returns:
        FloatTensor of shape (num_users, num_items) where entry (u, i) is the
        total dwell time user u spent on item i over all clicks.
    """
    matrix = torch.zeros(sessions.shape[0], num_items)
    matrix.scatter_add_(1, sessions, dwell)
    matrix[:, 0] = 0.0
    return matrix


def item_popularity(matrix, alpha=0.75):
    """Args: matrix (num_users, num_items). Returns: sampling weights (num_items,)."""
    pop = matrix.sum(dim=0).clamp_min(0) ** alpha
    return pop / pop.sum()


if __name__ == "__main__":
    sessions = torch.tensor([
        [3, 5, 3, 3, 0, 0],
        [1, 2, 1, 4, 2, 0],
        [5, 5, 6, 0, 0, 0],
    ])
    dwell = torch.tensor([
        [10.0, 4.0, 7.0, 2.0, 0.0, 0.0],
        [3.0, 8.0, 5.0, 1.0, 6.0, 0.0],
        [9.0, 2.0, 4.0, 0.0, 0.0, 0.0],
    ])
    m = build_user_item_matrix(sessions, dwell, num_items=7)
    ref = [[0.0] * 7 for _ in range(3)]
    for u in range(3):
        for j in range(6):
            item = int(sessions[u, j])
            if item != 0:
                ref[u][item] += float(dwell[u, j])
    assert torch.allclose(m, torch.tensor(ref))
    print("ok")
