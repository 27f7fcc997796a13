import torch
import torch.nn as nn


class ClozeSeqRecommender(nn.Module):
    """Bidirectional sequential recommender: append [MASK] and read its hidden state."""

    def __init__(self, n_items, hidden=32, max_len=10, n_layers=1):
        super().__init__()
        self.n_items = n_items
        self.mask_token = n_items  # extra row in the item table
        self.max_len = max_len
        self.item_embedding = nn.Embedding(n_items + 1, hidden, padding_idx=0)
        self.position_embedding = nn.Embedding(max_len, hidden)
        layer = nn.TransformerEncoderLayer(hidden, nhead=2, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)

    def append_mask(self, item_seq, item_seq_len):
        # item_seq: [B, L] left-aligned, zero padded; item_seq_len: [B]
        padding = torch.zeros(item_seq.size(0), 1, dtype=torch.long)
        item_seq = torch.cat((item_seq, padding), dim=-1)  # [B, L+1]
        item_seq[torch.arange(item_seq.size(0)), item_seq_len] = self.mask_token
        return item_seq[:, 1:]  # [B, L]; keep the window length, drops the oldest column

    def forward(self, item_seq):
        # item_seq: [B, L]
        pos = torch.arange(item_seq.size(1)).unsqueeze(0).expand_as(item_seq)
        x = self.item_embedding(item_seq) + self.position_embedding(pos)  # [B, L, H]
        return self.encoder(x, src_key_padding_mask=item_seq == 0)  # [B, L, H]

    @staticmethod
    def gather_indexes(output, gather_index):
        # output: [B, L, H]; gather_index: [B]
        gather_index = gather_index.view(-1, 1, 1).expand(-1, -1, output.size(-1))  # [B, 1, H]
        return output.gather(dim=1, index=gather_index).squeeze(1)  # [B, H]

    def predict(self, item_seq, item_seq_len, test_item):
        item_seq = self.append_mask(item_seq, item_seq_len)
        seq_output = self.forward(item_seq)  # [B, L, H]
        seq_output = self.gather_indexes(seq_output, item_seq_len - 1)  # [B, H] hidden state of [MASK]
        test_item_emb = self.item_embedding(test_item)  # [B, H]
        return (seq_output * test_item_emb).sum(dim=1)  # [B]

    def full_sort_predict(self, item_seq, item_seq_len):
        item_seq = self.append_mask(item_seq, item_seq_len)
        seq_output = self.gather_indexes(self.forward(item_seq), item_seq_len - 1)  # [B, H]
        return seq_output @ self.item_embedding.weight[: self.n_items].t()  # [B, n_items]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ClozeSeqRecommender(n_items=30).eval()
    item_seq = torch.tensor([[3, 4, 5, 0, 0, 0, 0, 0, 0, 0],
                             [7, 8, 9, 10, 11, 0, 0, 0, 0, 0]])
    item_seq_len = torch.tensor([3, 5])
    test_item = torch.tensor([6, 12])
    with torch.no_grad():
        point = model.predict(item_seq, item_seq_len, test_item)
        full = model.full_sort_predict(item_seq, item_seq_len)
    with torch.no_grad():
        for b in range(2):
            n = int(item_seq_len[b])
            seq = item_seq[b, :n].tolist() + [model.mask_token]
            seq = (seq + [0] * 10)[1:11]
            hid = model.forward(torch.tensor([seq]))[0]
            pos = seq.index(model.mask_token)
            ref = (hid[pos] * model.item_embedding.weight[test_item[b]]).sum()
            assert torch.allclose(point[b], ref, atol=1e-5), (b, point[b], ref)
    assert torch.allclose(point, full[torch.arange(2), test_item], atol=1e-5)
    print("ok")
