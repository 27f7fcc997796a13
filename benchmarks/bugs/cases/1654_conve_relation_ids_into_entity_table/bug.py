import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {
    "num_entities": 14,
    "num_relations": 55,
    "embedding_dim": 32,
    "img_height": 4,
    "conv_channels": 6,
    "kernel_size": 3,
    "input_dropout": 0.0,
}


class ConvE(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.img_height = config["img_height"]
        self.img_width = config["embedding_dim"] // self.img_height
        self.entity_embeddings = nn.Embedding(config["num_entities"], config["embedding_dim"])
        self.relation_embeddings = nn.Embedding(config["num_relations"], config["embedding_dim"])
        self.inp_drop = nn.Dropout(config["input_dropout"])
        self.conv1 = nn.Conv2d(1, config["conv_channels"], config["kernel_size"])
        conv_h = 2 * self.img_height - config["kernel_size"] + 1
        conv_w = self.img_width - config["kernel_size"] + 1
        self.fc = nn.Linear(config["conv_channels"] * conv_h * conv_w, config["embedding_dim"])
        self.entity_bias = nn.Parameter(torch.zeros(config["num_entities"]))

    def stacked_inputs(self, triple_batch):
        subject_batch = triple_batch[:, 0:1].view(-1)
        relation_batch = triple_batch[:, 1:2].view(-1)
        subject_embedded = self.entity_embeddings(subject_batch).view(-1, 1, self.img_height, self.img_width)
        relation_embedded = self.entity_embeddings(relation_batch).view(-1, 1, self.img_height, self.img_width)
        return torch.cat([subject_embedded, relation_embedded], 2)

    def score_objects(self, stacked):
        x = self.conv1(self.inp_drop(stacked))
        x = F.relu(x).flatten(1)
        x = F.relu(self.fc(x))
        return x @ self.entity_embeddings.weight.t() + self.entity_bias

    def forward(self, triple_batch):
        return self.score_objects(self.stacked_inputs(triple_batch))


def load_triples(config, n, seed=0):
    g = torch.Generator().manual_seed(seed)
    heads = torch.randint(0, config["num_entities"], (n,), generator=g)
    rels = torch.randint(0, config["num_relations"], (n,), generator=g)
    tails = torch.randint(0, config["num_entities"], (n,), generator=g)
    return torch.stack([heads, rels, tails], dim=1)


def reference_stacked(model, triples):
    rows = []
    for h, r, _ in triples.tolist():
        e = model.entity_embeddings.weight[h].view(1, model.img_height, model.img_width)
        rel = model.relation_embeddings.weight[r].view(1, model.img_height, model.img_width)
        rows.append(torch.cat([e, rel], 1))
    return torch.stack(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ConvE(CONFIG).eval()
    triples = load_triples(CONFIG, 64)
    with torch.no_grad():
        scores = model(triples)
        loss = F.cross_entropy(scores, triples[:, 2])
    print("scores:", tuple(scores.shape), "loss:", loss.item())
