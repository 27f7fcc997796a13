import torch


def collate_transactions(samples):
    """Merge per-account transaction lists into one edge list.

    Each sample is (payer_ids, payee_ids, amounts), all 1-D of the same length.
    Returns src [E], dst [E], amount [E]; an account pair may appear many times.
    """
    src = torch.cat([s[0] for s in samples])
    dst = torch.cat([s[1] for s in samples])
    amount = torch.cat([s[2] for s in samples])
    return src, dst, amount


def dense_flow_matrix(src, dst, amount, num_accounts):
    """Total amount sent between every pair of accounts.

    Args:
        src, dst: [E] account ids in [0, num_accounts).
        amount: [E] transferred amounts.
    Returns:
        [num_accounts, num_accounts] matrix, entry (i, j) = sum of amounts i -> j.
    """
    flow = torch.zeros(num_accounts, num_accounts)
    flow.index_put_((src, dst), amount, accumulate=True)
    return flow


if __name__ == "__main__":
    samples = [
        (torch.tensor([0, 0, 1]), torch.tensor([1, 1, 2]), torch.tensor([10.0, 5.0, 7.0])),
        (torch.tensor([2, 0]), torch.tensor([0, 1]), torch.tensor([3.0, 2.0])),
    ]
    src, dst, amount = collate_transactions(samples)
    flow = dense_flow_matrix(src, dst, amount, num_accounts=3)
    ref = [[0.0] * 3 for _ in range(3)]
    for i, j, a in zip(src.tolist(), dst.tolist(), amount.tolist()):
        ref[i][j] += a
    assert flow.tolist() == ref
    print("ok")
