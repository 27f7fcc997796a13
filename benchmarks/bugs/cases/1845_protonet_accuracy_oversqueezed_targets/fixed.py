import torch
import torch.nn.functional as F


def prototypical_loss(embeddings, targets, n_support):
    classes = torch.unique(targets)
    n_classes = len(classes)
    n_query = int((targets == classes[0]).sum()) - n_support
    support_idxs = [(targets == c).nonzero().squeeze(1)[:n_support] for c in classes]
    prototypes = torch.stack([embeddings[idx].mean(0) for idx in support_idxs])
    query_idxs = torch.cat([(targets == c).nonzero().squeeze(1)[n_support:] for c in classes])
    queries = embeddings[query_idxs]
    dists = torch.cdist(queries, prototypes).pow(2)
    log_p_y = F.log_softmax(-dists, dim=1).view(n_classes, n_query, -1)
    target_inds = torch.arange(n_classes).view(n_classes, 1, 1).expand(n_classes, n_query, 1)
    loss = -log_p_y.gather(2, target_inds).squeeze().view(-1).mean()
    _, y_hat = log_p_y.max(2)
    acc = y_hat.eq(target_inds.squeeze(2)).float().mean()
    return loss, acc


def make_episode(cfg, generator):
    centers = torch.randn(cfg["n_way"], cfg["dim"], generator=generator) * cfg["spread"]
    per_class = cfg["n_support"] + cfg["n_query"]
    feats, labels = [], []
    for c in range(cfg["n_way"]):
        feats.append(centers[c] + 0.1 * torch.randn(per_class, cfg["dim"], generator=generator))
        labels.append(torch.full((per_class,), c))
    return torch.cat(feats), torch.cat(labels)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"n_way": 5, "n_support": 3, "n_query": 1, "dim": 16, "spread": 2.0}
    gen = torch.Generator().manual_seed(0)
    embeddings, targets = make_episode(cfg, gen)
    loss, acc = prototypical_loss(embeddings, targets, cfg["n_support"])
    n_way, n_s, n_q = cfg["n_way"], cfg["n_support"], cfg["n_query"]
    per_class = n_s + n_q
    protos = [embeddings[c * per_class : c * per_class + n_s].mean(0) for c in range(n_way)]
    correct, nll = 0, 0.0
    for c in range(n_way):
        for q in range(n_q):
            x = embeddings[c * per_class + n_s + q]
            d = torch.stack([((x - p) ** 2).sum() for p in protos])
            logp = torch.log_softmax(-d, dim=0)
            nll += -logp[c].item()
            correct += int(logp.argmax().item() == c)
    assert abs(acc.item() - correct / (n_way * n_q)) < 1e-6
    assert abs(loss.item() - nll / (n_way * n_q)) < 1e-4
    print("ok")
