import torch
import torch.nn as nn
import torch.nn.functional as F


class FISSA(nn.Module):
    """Local (self-attention) and global (item-similarity) user representations mixed by an item-aware gate."""

    def __init__(self, config):
        super().__init__()
        d = config["hidden_size"]
        self.item_embedding = nn.Embedding(config["n_items"], d, padding_idx=0)
        self.position_embedding = nn.Embedding(config["max_seq_length"], d)
        layer = nn.TransformerEncoderLayer(d, config["n_heads"], config["inner_size"], dropout=0.0, batch_first=True)
        self.trm_encoder = nn.TransformerEncoder(layer, config["n_layers"], enable_nested_tensor=False)
        self.w_att = nn.Linear(d, d, bias=False)
        self.q_s = nn.Parameter(torch.randn(d) * 0.1)
        self.gating = nn.Linear(d * 3, 1)

    def gather_indexes(self, output, gather_index):
        gather_index = gather_index.view(-1, 1, 1).expand(-1, -1, output.shape[-1])
        return output.gather(dim=1, index=gather_index).squeeze(1)

    def forward(self, item_seq, item_seq_len):
        item_emb = self.item_embedding(item_seq)
        positions = torch.arange(item_seq.size(1), device=item_seq.device).unsqueeze(0).expand_as(item_seq)
        hidden = self.trm_encoder(item_emb + self.position_embedding(positions), src_key_padding_mask=item_seq == 0)
        seq_x = self.gather_indexes(hidden, item_seq_len - 1)
        att = (self.w_att(item_emb) @ self.q_s).masked_fill(item_seq == 0, float("-inf"))
        seq_y = (F.softmax(att, dim=1).unsqueeze(-1) * item_emb).sum(dim=1)
        return seq_x, seq_y

    def cal_final(self, seq_x, seq_y, item_seq, item_seq_len, candidates_embedding):
        last_embedding = self.gather_indexes(self.item_embedding(item_seq), item_seq_len - 1)
        n_cand = candidates_embedding.size(1)
        isg_input = torch.cat((last_embedding, seq_y), dim=1).unsqueeze(1).repeat(1, n_cand, 1)
        g = torch.sigmoid(self.gating(torch.cat((isg_input, candidates_embedding), dim=2)))
        return seq_x.unsqueeze(1) * g + seq_y.unsqueeze(1) * (1 - g)

    def full_sort_predict(self, item_seq, item_seq_len):
        seq_x, seq_y = self.forward(item_seq, item_seq_len)
        candidates = self.item_embedding.weight.unsqueeze(0).repeat(item_seq.size(0), 1, 1)
        seq_output = self.cal_final(seq_x, seq_y, item_seq, item_seq_len, candidates)
        return (seq_output * candidates).sum(dim=-1)


def make_batch(lengths, cfg):
    item_seq = torch.zeros(len(lengths), cfg["max_seq_length"], dtype=torch.long)
    for row, n in enumerate(lengths):
        item_seq[row, :n] = torch.randint(1, cfg["n_items"], (n,))
    return item_seq, torch.tensor(lengths)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"n_items": 60, "hidden_size": 16, "max_seq_length": 10, "n_heads": 2, "inner_size": 32, "n_layers": 1}
    model = FISSA(cfg).eval()
    item_seq, item_seq_len = make_batch([4, 10, 7, 2], cfg)
    with torch.no_grad():
        scores = model.full_sort_predict(item_seq, item_seq_len)
        seq_x, seq_y = model.forward(item_seq, item_seq_len)
        ref = torch.empty_like(scores)
        for b in range(item_seq.size(0)):
            last = model.item_embedding.weight[item_seq[b, item_seq_len[b] - 1]]
            for i in range(cfg["n_items"]):
                cand = model.item_embedding.weight[i]
                g = torch.sigmoid(model.gating(torch.cat((last, seq_y[b], cand))))
                ref[b, i] = ((seq_x[b] * g + seq_y[b] * (1 - g)) * cand).sum()
    assert torch.allclose(scores, ref, atol=1e-5)
    print("ok")
