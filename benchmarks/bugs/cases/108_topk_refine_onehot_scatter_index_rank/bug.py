import torch
import torch.nn as nn


def refine_topk_predictions(logits, target, top_k):
    topk_idx = logits.topk(top_k, dim=-1).indices
    hit = (topk_idx == target.unsqueeze(1)).any(dim=1)
    chosen = torch.where(hit, target, topk_idx[:, 0])
    return torch.zeros_like(logits, dtype=torch.int32).scatter_(-1, chosen.unsqueeze(1).unsqueeze(1), 1)


def stat_scores(logits, target, top_k=1):
    preds_oh = refine_topk_predictions(logits, target, top_k)
    target_oh = torch.zeros_like(preds_oh).scatter_(-1, target.unsqueeze(1), 1)
    tp = (preds_oh & target_oh).sum(0)
    fp = (preds_oh & (1 - target_oh)).sum(0)
    fn = ((1 - preds_oh) & target_oh).sum(0)
    return tp, fp, fn


def macro_recall(tp, fn):
    return (tp / (tp + fn).clamp(min=1)).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(16, 10)
    x = torch.randn(32, 16)
    target = torch.randint(0, 10, (32,))
    with torch.no_grad():
        logits = model(x)
    tp, fp, fn = stat_scores(logits, target, top_k=3)
    top3 = logits.topk(3, dim=-1).indices
    ref_tp = torch.zeros(10, dtype=torch.long)
    for i in range(32):
        if target[i] in top3[i]:
            ref_tp[target[i]] += 1
    print("top-3 macro recall:", macro_recall(tp, fn).item())
    print("true positives match:", torch.equal(tp.long(), ref_tp))
