import torch
import torch.nn as nn
import torch.nn.functional as F


class Protonet(nn.Module):
    def __init__(self, in_dim, hid_dim, z_dim):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, hid_dim), nn.ReLU(), nn.Linear(hid_dim, z_dim))

    def loss(self, xs, xq):
        n_class, n_support = xs.size(0), xs.size(1)
        n_query = xq.size(1)
        target_inds = torch.arange(n_class).view(n_class, 1, 1).expand(n_class, n_query, 1)

        x = torch.cat([xs.reshape(n_class * n_support, -1), xq.reshape(n_class * n_query, -1)], 0)
        z = self.encoder(x)
        z_proto = z[: n_class * n_support].view(n_class, n_support, -1).mean(1)
        zq = z[n_class * n_support :]

        dists = torch.cdist(zq, z_proto).pow(2)
        log_p_y = F.log_softmax(-dists, dim=1).view(n_class, n_query, -1)
        loss_val = -log_p_y.gather(2, target_inds).squeeze().view(-1).mean()

        y_hat = log_p_y.argmax(2)
        acc_val = torch.eq(y_hat, target_inds.squeeze()).float().mean()
        return loss_val, {"loss": loss_val.item(), "acc": acc_val.item()}


def sample_episode(n_way, n_shot, n_query, dim, generator):
    centers = torch.randn(n_way, 1, dim, generator=generator) * 4.0
    xs = centers + torch.randn(n_way, n_shot, dim, generator=generator)
    xq = centers + torch.randn(n_way, n_query, dim, generator=generator)
    return xs, xq


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    model = Protonet(in_dim=32, hid_dim=64, z_dim=32)
    xs, xq = sample_episode(n_way=5, n_shot=5, n_query=1, dim=32, generator=g)
    with torch.no_grad():
        _, stats = model.loss(xs, xq)
        z_proto = model.encoder(xs).mean(1)
        zq = model.encoder(xq)
        correct = 0
        for c in range(5):
            d = [((zq[c, 0] - z_proto[k]) ** 2).sum().item() for k in range(5)]
            correct += int(min(range(5), key=lambda k: d[k]) == c)
    print("episode acc:", stats["acc"], "loop reference acc:", correct / 5)
