import torch
import torch.nn.functional as F


def sample_negatives(positives, num_items, generator=None):
    """Draw one random negative item per user, different from the positive.

    Args:
        positives: LongTensor of shape (batch,) with the clicked item of each user.
        num_items: size of the item catalogue.

    Returns:
        LongTensor of shape (batch,) with one negative item id per user.
    """
    offset = torch.randint(1, num_items, positives.shape, generator=generator)
    return (positives + offset) % num_items


def bpr_loss(scores, positives, negatives):
    """Bayesian personalised ranking loss.

    Args:
        scores: FloatTensor of shape (batch, num_items), user-item affinities.
        positives: LongTensor of shape (batch,), positive item per user.
        negatives: LongTensor of shape (batch,), sampled negative item per user.

    Returns:
        Scalar loss averaged over the batch.
    """
    rows = torch.arange(scores.shape[0])
    pos = scores[rows, positives]
    neg = scores[rows, negatives]
    return -F.logsigmoid(pos - neg).mean()


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    users = torch.randn(6, 8, generator=g)
    items = torch.randn(20, 8, generator=g)
    scores = users @ items.T
    positives = torch.tensor([3, 7, 7, 0, 19, 11])
    negatives = sample_negatives(positives, items.shape[0], generator=g)
    got = bpr_loss(scores, positives, negatives)
    total = 0.0
    for b in range(scores.shape[0]):
        diff = scores[b, int(positives[b])] - scores[b, int(negatives[b])]
        total += -float(F.logsigmoid(diff))
    assert abs(got.item() - total / scores.shape[0]) < 1e-5
    print("ok")
