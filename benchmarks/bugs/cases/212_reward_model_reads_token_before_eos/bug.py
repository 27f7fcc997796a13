import torch
import torch.nn as nn
import torch.nn.functional as F

EOD = 1
PAD = 0


def build_tokenizer_batch(samples, seq_length):
    rows = []
    for ids in samples:
        ids = ids[: seq_length - 1] + [EOD]
        rows.append(ids + [PAD] * (seq_length + 1 - len(ids)))
    return {"text": torch.tensor(rows)}


def get_batch(data):
    tokens_ = data["text"]
    labels = tokens_[:, 1:].contiguous()
    tokens = tokens_[:, :-1].contiguous()
    loss_mask = (labels != PAD).float()
    return tokens, labels, loss_mask


class RewardModel(nn.Module):
    def __init__(self, neox_args):
        super().__init__()
        self.embed = nn.Embedding(neox_args["padded_vocab_size"], neox_args["hidden_size"])
        self.pos = nn.Embedding(neox_args["seq_length"], neox_args["hidden_size"])
        self.block = nn.TransformerEncoderLayer(
            neox_args["hidden_size"], neox_args["num_attention_heads"], 2 * neox_args["hidden_size"],
            dropout=0.0, batch_first=True,
        )
        self.rm_head = nn.Linear(neox_args["hidden_size"], 1)

    def forward(self, tokens):
        n = tokens.size(1)
        causal = nn.Transformer.generate_square_subsequent_mask(n)
        hidden = self.block(self.embed(tokens) + self.pos(torch.arange(n)), src_mask=causal, is_causal=True)
        return self.rm_head(hidden).squeeze(-1)


def end_rewards(values, loss_mask):
    ends = loss_mask.sum(dim=-1).long() - 1
    return values.gather(1, ends.unsqueeze(-1)).squeeze(-1)


def pairwise_rm_loss(model, chosen, rejected):
    tokens_c, _, mask_c = get_batch(chosen)
    tokens_r, _, mask_r = get_batch(rejected)
    r_chosen = end_rewards(model(tokens_c), mask_c)
    r_rejected = end_rewards(model(tokens_r), mask_r)
    return -F.logsigmoid(r_chosen - r_rejected).mean(), r_chosen, r_rejected


if __name__ == "__main__":
    torch.manual_seed(0)
    neox_args = {"padded_vocab_size": 32, "hidden_size": 16, "num_attention_heads": 2, "seq_length": 8}
    chosen = build_tokenizer_batch([[5, 9, 12, 7], [4, 4, 20], [8, 30, 2, 11, 6]], neox_args["seq_length"])
    rejected = build_tokenizer_batch([[5, 9, 13], [4, 4, 21, 3], [8, 30, 2]], neox_args["seq_length"])
    model = RewardModel(neox_args).eval()
    with torch.no_grad():
        loss, r_chosen, _ = pairwise_rm_loss(model, chosen, rejected)
        tokens, _, _ = get_batch(chosen)
        values = model(tokens)
    eod_pos = [(row == EOD).nonzero()[0].item() for row in tokens]
    print("chosen rewards:", [round(v, 4) for v in r_chosen.tolist()])
    print("values at the EOD token:", [round(values[i, p].item(), 4) for i, p in enumerate(eod_pos)])
    print("loss:", round(loss.item(), 4))
