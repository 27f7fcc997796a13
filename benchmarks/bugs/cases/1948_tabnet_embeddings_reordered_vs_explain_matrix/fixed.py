import numpy as np
import torch


def create_explain_matrix(input_dim, cat_emb_dim, cat_idxs, post_embed_dim):
    """Matrix that sums the importances of the embedding columns back onto each initial feature."""
    all_emb_impact = [cat_emb_dim - 1] * len(cat_idxs)
    acc_emb = 0
    nb_emb = 0
    indices_trick = []
    for i in range(input_dim):
        if i not in cat_idxs:
            indices_trick.append([i + acc_emb])
        else:
            indices_trick.append(range(i + acc_emb, i + acc_emb + all_emb_impact[nb_emb] + 1))
            acc_emb += all_emb_impact[nb_emb]
            nb_emb += 1
    reducing_matrix = np.zeros((post_embed_dim, input_dim))
    for i, cols in enumerate(indices_trick):
        reducing_matrix[cols, i] = 1
    return reducing_matrix


class TabNetEncoderLite(torch.nn.Module):
    def __init__(self, input_dim, cat_dims, cat_idxs, cat_emb_dim=3):
        super().__init__()
        self.input_dim = input_dim
        self.cat_idxs = cat_idxs
        self.embeddings = torch.nn.ModuleList([torch.nn.Embedding(d, cat_emb_dim) for d in cat_dims])
        self.continuous_idx = torch.ones(input_dim, dtype=torch.bool)
        self.continuous_idx[cat_idxs] = 0
        self.post_embed_dim = input_dim + (cat_emb_dim - 1) * len(cat_idxs)
        self.attention = torch.nn.Linear(self.post_embed_dim, self.post_embed_dim)

    def apply_embeddings(self, x):
        """Apply embdeddings to raw inputs"""
        cols = []
        cat_feat_counter = 0
        for feat_init_idx, is_continuous in enumerate(self.continuous_idx):
            # Enumerate through continuous idx boolean mask to apply embeddings
            if is_continuous:
                cols.append(x[:, feat_init_idx].view(-1, 1))
            else:
                cols.append(self.embeddings[cat_feat_counter](x[:, feat_init_idx].long()))
                cat_feat_counter += 1
        post_embeddings = torch.cat(cols, dim=1).float()
        return post_embeddings

    def forward(self, x):
        x = self.apply_embeddings(x)
        M = torch.softmax(self.attention(x), dim=1)
        return x, M


class TabNetExplainer:
    def __init__(self, network, cat_emb_dim):
        self.network = network
        self.reducing_matrix = create_explain_matrix(
            network.input_dim, cat_emb_dim, network.cat_idxs, network.post_embed_dim
        )

    def explain(self, X):
        with torch.no_grad():
            _, M_explain = self.network(X)
        res_explain = np.matmul(M_explain.numpy(), self.reducing_matrix)
        return res_explain / res_explain.sum(axis=1, keepdims=True)


if __name__ == "__main__":
    torch.manual_seed(0)
    feature_names = ["age", "city", "income", "device", "tenure"]
    cat_idxs, cat_dims = [1, 3], [10, 4]
    net = TabNetEncoderLite(input_dim=5, cat_dims=cat_dims, cat_idxs=cat_idxs, cat_emb_dim=3)
    with torch.no_grad():  # a mask that attends to the column carrying the largest value
        net.attention.weight.copy_(torch.eye(net.post_embed_dim) * 5.0)
        net.attention.bias.zero_()
        for emb in net.embeddings:
            emb.weight.mul_(0.1)

    X = torch.tensor([[0.1, 3, 4.0, 1, 0.2], [0.2, 7, 3.5, 0, 0.1], [0.05, 2, 5.0, 2, 0.3]])
    importances = TabNetExplainer(net, cat_emb_dim=3).explain(X)

    # reference: embed feature by feature in input order, attend, and sum each feature's own columns
    for b in range(X.shape[0]):
        columns, owner = [], []
        icat = 0
        for f in range(5):
            if f in cat_idxs:
                vec = net.embeddings[icat].weight[int(X[b, f])].tolist()
                icat += 1
            else:
                vec = [X[b, f].item()]
            columns += vec
            owner += [f] * len(vec)
        with torch.no_grad():
            m = torch.softmax(net.attention(torch.tensor([columns])), dim=1)[0].tolist()
        per_feature = [sum(m[j] for j in range(len(m)) if owner[j] == f) for f in range(5)]
        total = sum(per_feature)
        for f in range(5):
            assert abs(importances[b, f] - per_feature[f] / total) < 1e-5
        assert feature_names[int(np.argmax(importances[b]))] == "income"
    print("ok")
