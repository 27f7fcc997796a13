import torch
import torch.nn.functional as F


def soft_labels_from_votes(votes, num_classes, annotator_weight):
    # votes: [B, A] class id chosen by each of A annotators
    # annotator_weight: [B, 1] confidence of the annotator pool for each example
    B, A = votes.shape
    share = annotator_weight / A                                     # [B, 1]
    target = torch.zeros(B, num_classes)                             # [B, C]
    target.scatter_add_(1, votes, share.expand(B, A))                # [B, C]
    return target / target.sum(1, keepdim=True)


def soft_ce(logits, target):
    # logits, target: [B, C]
    return -(target * F.log_softmax(logits, dim=1)).sum(1).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    B, A, C = 6, 5, 4
    votes = torch.randint(0, C, (B, A))
    annotator_weight = torch.rand(B, 1) + 0.5
    got = soft_labels_from_votes(votes, C, annotator_weight)
    for b in range(B):
        counts = [0.0] * C
        for a in range(A):
            counts[votes[b, a].item()] += 1.0
        ref = torch.tensor(counts) / A
        assert torch.allclose(got[b], ref, atol=1e-6), (got[b], ref)
    logits = torch.randn(B, C, requires_grad=True)
    soft_ce(logits, got).backward()
    print("ok")
