import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphClassifier(nn.Module):
    def __init__(self, in_feats, hidden, num_classes):
        super().__init__()
        self.lin1 = nn.Linear(in_feats, hidden)
        self.lin2 = nn.Linear(hidden, hidden)
        self.fc = nn.Linear(hidden, num_classes)

    def forward(self, x, edge_index, graph_id, num_graphs, edge_weight=None, embed=False):
        # x: [N, F], edge_index: [2, E], graph_id: [N], edge_weight: [E]
        src, dst = edge_index
        if edge_weight is None:
            edge_weight = torch.ones(src.shape[0])
        h = torch.relu(self.lin1(x))
        msg = h.index_select(0, src) * edge_weight.unsqueeze(-1)      # [E, H]
        agg = torch.zeros_like(h).index_add_(0, dst, msg)              # [N, H]
        h = torch.relu(self.lin2(h + agg))
        if embed:
            return h
        pooled = torch.zeros(num_graphs, h.shape[1]).index_add_(0, graph_id, h)
        counts = torch.bincount(graph_id, minlength=num_graphs).clamp(min=1)
        return self.fc(pooled / counts.unsqueeze(-1))                  # [G, C]


class EdgeMaskExplainer(nn.Module):
    def __init__(self, model, hidden, coff_size=0.01, coff_ent=0.1):
        super().__init__()
        self.model = model
        self.coff_size, self.coff_ent = coff_size, coff_ent
        self.elayers = nn.Sequential(nn.Linear(2 * hidden, 32), nn.ReLU(), nn.Linear(32, 1))
        self.edge_mask = None

    def concrete_sample(self, log_alpha, beta=1.0, training=True):
        if training:
            bias = 1e-4
            u = torch.rand(log_alpha.shape) * (1 - 2 * bias) + bias
            gate = (torch.log(u) - torch.log(1.0 - u) + log_alpha) / beta
            return torch.sigmoid(gate)
        return torch.sigmoid(log_alpha)

    def explain_graph(self, x, edge_index, graph_id, num_graphs, tmp=1.0, training=False):
        emb = self.model(x, edge_index, graph_id, num_graphs, embed=True)          # [N, H]
        src, dst = edge_index
        edge_emb = torch.cat([emb.index_select(0, src), emb.index_select(0, dst)], -1)  # [E, 2H]
        log_alpha = self.elayers(edge_emb).squeeze(-1)                              # [E]
        edge_mask = self.concrete_sample(log_alpha, beta=tmp, training=training)
        self.edge_mask = edge_mask
        logits = self.model(x, edge_index, graph_id, num_graphs, edge_weight=edge_mask)
        return F.softmax(logits, dim=-1), edge_mask                                 # [G, C], [E]

    def loss(self, prob, ori_pred):
        # prob: [G, C] class probabilities of every graph in the batch
        # ori_pred: [G] class the model predicted for each graph without the mask
        target_prob = prob[ori_pred]
        target_prob = target_prob + 1e-6
        pred_loss = torch.mean(-torch.log(target_prob))

        size_loss = self.coff_size * torch.sum(self.edge_mask)
        mask = self.edge_mask * 0.99 + 0.005
        mask_ent = -mask * torch.log(mask) - (1 - mask) * torch.log(1 - mask)
        return pred_loss + size_loss + self.coff_ent * torch.mean(mask_ent)

    def train_step(self, x, edge_index, graph_id, num_graphs, tmp):
        with torch.no_grad():
            pred = self.model(x, edge_index, graph_id, num_graphs).argmax(-1)     # [G]
        prob, _ = self.explain_graph(x, edge_index, graph_id, num_graphs, tmp=tmp, training=True)
        return self.loss(prob, pred), prob, pred


def fit_classifier(model, x, edge_index, graph_id, num_graphs, labels, steps=60):
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(steps):
        loss = F.cross_entropy(model(x, edge_index, graph_id, num_graphs), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def batch_graphs(graphs):
    xs, edges, ids, offset = [], [], [], 0
    for gid, (x, e) in enumerate(graphs):
        xs.append(x)
        edges.append(e + offset)
        ids.append(torch.full((x.shape[0],), gid))
        offset += x.shape[0]
    return torch.cat(xs), torch.cat(edges, 1), torch.cat(ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    graphs = []
    for n, shift in ((5, 2.0), (4, -2.0), (6, -2.0), (3, 2.0)):
        x = torch.randn(n, 7) + shift
        ring = torch.arange(n)
        e = torch.stack([torch.cat([ring, (ring + 1) % n]), torch.cat([(ring + 1) % n, ring])])
        graphs.append((x, e))
    x, edge_index, graph_id = batch_graphs(graphs)
    model = GraphClassifier(7, 16, 2)
    fit_classifier(model, x, edge_index, graph_id, 4, torch.tensor([1, 0, 0, 1]))
    explainer = EdgeMaskExplainer(model, 16)
    loss, prob, pred = explainer.train_step(x, edge_index, graph_id, 4, tmp=5.0)

    p = prob.detach()
    ref_pred = sum(-math.log(float(p[g, int(pred[g])]) + 1e-6) for g in range(4)) / 4
    mask = explainer.edge_mask.detach() * 0.99 + 0.005
    ent = (-mask * torch.log(mask) - (1 - mask) * torch.log(1 - mask)).mean()
    ref = ref_pred + 0.01 * explainer.edge_mask.detach().sum().item() + 0.1 * ent.item()
    print("predicted classes:", pred.tolist())
    print("explainer loss:", round(loss.item(), 5), "expected:", round(ref, 5))
