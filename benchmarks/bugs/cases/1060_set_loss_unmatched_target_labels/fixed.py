import torch
import torch.nn.functional as F

CONFIG = {"num_queries": 4, "num_classes": 5, "batch": 2}


def greedy_match(cost):
    pairs, cost = [], cost.clone()
    for _ in range(min(cost.shape)):
        flat = int(cost.argmin())
        q, t = divmod(flat, cost.shape[1])
        pairs.append((q, t))
        cost[q, :] = float("inf")
        cost[:, t] = float("inf")
    q_idx, t_idx = zip(*sorted(pairs))
    return torch.tensor(q_idx), torch.tensor(t_idx)


def match(logits, targets):
    probs = logits.softmax(-1)
    return [greedy_match(-probs[b][:, t["labels"]]) for b, t in enumerate(targets)]


def classification_loss(logits, targets, cfg):
    indices = match(logits, targets)
    batch_idx = torch.cat([torch.full_like(q, b) for b, (q, _) in enumerate(indices)])
    query_idx = torch.cat([q for q, _ in indices])
    target_classes_o = torch.cat([t["labels"][j] for t, (_, j) in zip(targets, indices)])
    target_classes = torch.full(logits.shape[:2], cfg["num_classes"], dtype=torch.long)
    target_classes[batch_idx, query_idx] = target_classes_o
    return F.cross_entropy(logits.transpose(1, 2), target_classes)


def make_batch(cfg, n_objects=(3, 6)):
    g = torch.Generator().manual_seed(1)
    logits = torch.randn(cfg["batch"], cfg["num_queries"], cfg["num_classes"] + 1, generator=g)
    targets = [{"labels": torch.randint(0, cfg["num_classes"], (n,), generator=g)} for n in n_objects]
    return logits, targets


if __name__ == "__main__":
    logits, targets = make_batch(CONFIG)
    loss = classification_loss(logits, targets, CONFIG)
    tc = [[CONFIG["num_classes"]] * CONFIG["num_queries"] for _ in range(CONFIG["batch"])]
    for b, (q, j) in enumerate(match(logits, targets)):
        for qq, jj in zip(q.tolist(), j.tolist()):
            tc[b][qq] = int(targets[b]["labels"][jj])
    logp = logits.log_softmax(-1)
    ref = -sum(logp[b, q, tc[b][q]].item() for b in range(2) for q in range(4)) / 8
    assert abs(loss.item() - ref) < 1e-5
    print("ok")
