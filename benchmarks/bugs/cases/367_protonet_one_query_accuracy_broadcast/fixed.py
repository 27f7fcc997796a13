import torch
import torch.nn.functional as F

EPISODE = {"n_way": 5, "n_shot": 3, "n_query": 1, "dim": 8}


def pairwise_sq_dist(a, b):
    return (a[:, None, :] - b[None, :, :]).pow(2).sum(-1)


def episode_metrics(feats, labels, n_shot):
    ways = labels.unique()
    n_way = ways.numel()
    per_class = [feats[labels == w] for w in ways]
    n_query = per_class[0].size(0) - n_shot
    protos = torch.stack([f[:n_shot].mean(0) for f in per_class])
    queries = torch.cat([f[n_shot:] for f in per_class])
    log_p = F.log_softmax(-pairwise_sq_dist(queries, protos), dim=1).view(n_way, n_query, n_way)
    gold = torch.arange(n_way).view(n_way, 1, 1).expand(n_way, n_query, 1)
    loss = -log_p.gather(2, gold).mean()
    pred = log_p.argmax(dim=2)
    acc = pred.eq(gold.squeeze(2)).float().mean()
    return loss, acc


def sample_episode(cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    centers = 5.0 * torch.randn(cfg["n_way"], cfg["dim"], generator=g)
    per = cfg["n_shot"] + cfg["n_query"]
    feats = centers.repeat_interleave(per, 0) + 0.1 * torch.randn(cfg["n_way"] * per, cfg["dim"], generator=g)
    labels = torch.arange(cfg["n_way"]).repeat_interleave(per)
    return feats, labels


if __name__ == "__main__":
    feats, labels = sample_episode(EPISODE)
    loss, acc = episode_metrics(feats, labels, EPISODE["n_shot"])
    per = EPISODE["n_shot"] + EPISODE["n_query"]
    protos = torch.stack([feats[labels == w][:EPISODE["n_shot"]].mean(0) for w in range(EPISODE["n_way"])])
    correct = 0
    for i in range(len(labels)):
        if i % per >= EPISODE["n_shot"]:
            correct += int(((protos - feats[i]) ** 2).sum(1).argmin().item() == labels[i].item())
    assert abs(acc.item() - correct / (EPISODE["n_way"] * EPISODE["n_query"])) < 1e-6
    cfg = dict(EPISODE, n_query=3)
    feats, labels = sample_episode(cfg, seed=1)
    loss3, acc3 = episode_metrics(feats, labels, cfg["n_shot"])
    assert abs(acc3.item() - 1.0) < 1e-6
    print("ok", round(abs(loss.item()), 4), acc.item())
