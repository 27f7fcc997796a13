import torch
import torch.nn as nn

cfg = {"num_in_degree": 8, "num_out_degree": 8, "hidden_dim": 4}


def collate(graphs):
    node_feats, in_degree, out_degree = [], [], []
    for g in graphs:
        n = g["x"].size(0)
        src, dst = g["edges"]
        in_degree.append(torch.bincount(dst, minlength=n))
        out_degree.append(torch.bincount(src, minlength=n))
        node_feats.append(g["x"])
    return {"x": torch.cat(node_feats), "in_degree": torch.cat(in_degree), "out_degree": torch.cat(out_degree)}


class CentralityEncoding(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.in_degree_encoder = nn.Embedding(config["num_in_degree"], config["hidden_dim"], padding_idx=0)
        self.out_degree_encoder = nn.Embedding(config["num_out_degree"], config["hidden_dim"], padding_idx=0)

    def forward(self, batched_data):
        x = batched_data["x"]
        in_degree, out_degree = batched_data["in_degree"], batched_data["in_degree"]
        return x + self.in_degree_encoder(in_degree) + self.out_degree_encoder(out_degree)


if __name__ == "__main__":
    torch.manual_seed(0)
    graphs = [
        {"x": torch.zeros(3, 4), "edges": torch.tensor([[0, 0, 1], [1, 2, 2]])},
        {"x": torch.zeros(2, 4), "edges": torch.tensor([[0, 0], [1, 1]])},
    ]
    batch = collate(graphs)
    enc = CentralityEncoding(cfg)
    with torch.no_grad():
        out = enc(batch)
        out_part = out - enc.in_degree_encoder(batch["in_degree"])
        used = [int(torch.cdist(r[None], enc.out_degree_encoder.weight).argmin()) for r in out_part]
    print("out-degree rows used:", used, "true out-degrees:", batch["out_degree"].tolist())
