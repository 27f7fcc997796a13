import torch
import torch.nn as nn


class FeatureSeqEmbLayer(nn.Module):
    def __init__(self, item_feat, num_categories, embedding_size, selected_features):
        super().__init__()
        self.selected_features = selected_features
        # one extra row so that the [MASK] token id (== n_items) maps to the padding category
        self.item_feat = {field: torch.cat([item_feat[field], item_feat[field].new_zeros(1)])
                          for field in selected_features}
        self.token_embedding_table = nn.ModuleDict({
            field: nn.Embedding(num_categories[field], embedding_size, padding_idx=0)
            for field in selected_features
        })

    def forward(self, item_seq):
        feature_embs = []
        for field in self.selected_features:
            feat_seq = self.item_feat[field][item_seq]
            feature_embs.append(self.token_embedding_table[field](feat_seq))
        return torch.stack(feature_embs, dim=-2).mean(dim=-2)


class BERT4RecF(nn.Module):
    def __init__(self, n_items, item_feat, num_categories, hidden_size, max_seq_length):
        super().__init__()
        self.n_items = n_items
        self.mask_token = n_items
        self.item_embedding = nn.Embedding(n_items + 1, hidden_size, padding_idx=0)
        self.position_embedding = nn.Embedding(max_seq_length + 1, hidden_size)
        self.feature_embed_layer = FeatureSeqEmbLayer(
            item_feat, num_categories, hidden_size, ["category", "price_level"])
        self.out = nn.Linear(hidden_size, hidden_size)

    def reconstruct_test_data(self, item_seq, item_seq_len):
        padding = torch.zeros(item_seq.size(0), 1, dtype=torch.long)
        item_seq = torch.cat((item_seq, padding), dim=-1)
        for batch_id, last_position in enumerate(item_seq_len.tolist()):
            item_seq[batch_id, last_position] = self.mask_token
        return item_seq

    def forward(self, item_seq):
        position_ids = torch.arange(item_seq.size(1)).unsqueeze(0).expand_as(item_seq)
        item_emb = self.item_embedding(item_seq)
        feature_emb = self.feature_embed_layer(item_seq)
        hidden = item_emb + feature_emb + self.position_embedding(position_ids)
        return self.out(torch.tanh(hidden))

    def full_sort_predict(self, item_seq, item_seq_len):
        item_seq = self.reconstruct_test_data(item_seq, item_seq_len)
        seq_output = self.forward(item_seq)
        index = item_seq_len.view(-1, 1, 1).expand(-1, -1, seq_output.size(-1))
        seq_output = seq_output.gather(dim=1, index=index).squeeze(1)
        test_items_emb = self.item_embedding.weight[:self.n_items]
        return seq_output @ test_items_emb.t()


if __name__ == "__main__":
    torch.manual_seed(0)
    n_items = 6
    item_feat = {
        "category": torch.tensor([0, 2, 1, 2, 3, 1]),
        "price_level": torch.tensor([0, 1, 1, 2, 2, 3]),
    }
    num_categories = {"category": 4, "price_level": 4}
    model = BERT4RecF(n_items, item_feat, num_categories, hidden_size=8, max_seq_length=5)
    item_seq = torch.tensor([[3, 1, 5, 0, 0], [2, 4, 4, 1, 0]])
    item_seq_len = torch.tensor([3, 4])
    with torch.no_grad():
        scores = model.full_sort_predict(item_seq, item_seq_len)
    torch.set_grad_enabled(False)
    fields = ["category", "price_level"]
    for b in range(2):
        L = int(item_seq_len[b])
        seq = item_seq[b].tolist() + [0]
        seq[L] = n_items
        emb = model.item_embedding.weight[seq[L]].clone()
        feats = []
        for f in fields:
            cat = int(item_feat[f][seq[L]]) if seq[L] < n_items else 0
            feats.append(model.feature_embed_layer.token_embedding_table[f].weight[cat])
        emb = emb + sum(feats) / len(feats) + model.position_embedding.weight[L]
        h = model.out(torch.tanh(emb))
        for i in range(n_items):
            expected = float((h * model.item_embedding.weight[i]).sum())
            assert abs(float(scores[b, i]) - expected) < 1e-5, (b, i)
    print("ok")
