import torch
import torch.nn.functional as F


def soft_labels_from_votes(votes, num_classes, annotator_weight):
    # votes: [B, A] class id chosen by each of A annotators
    # annotator_weight: [B, 1] confidence of the annotator pool for each example
    B, A = votes.shape
    share = annotator_weight / A                                     # [B, 1]
    target = torch.zeros(B, num_classes)                             # [B, C]
    target.scatter_add_(1, votes, share)                             # [B, C]
    return target / target.sum(1, keepdim=True)


def soft_ce(logits, target):
    # logits, target: [B, C]
    return -(target * F.log_softmax(logits, dim=1)).sum(1).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    B, A, C = 6, 5, 4
    votes = torch.randint(0, C, (B, A))
    annotator_weight = torch.rand(B, 1) + 0.5
    logits = torch.randn(B, C, requires_grad=True)
    loss = soft_ce(logits, soft_labels_from_votes(votes, C, annotator_weight))
    loss.backward()
    print("loss:", loss.item())
