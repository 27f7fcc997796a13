import copy

import torch
import torch.nn as nn


class Vocab:
    def __init__(self, tokens):
        self.itos = list(tokens)
        self.stoi = {t: i for i, t in enumerate(self.itos)}


class Field:
    def __init__(self, tokens, init_token="<sos>", eos_token="<eos>"):
        self.init_token = init_token
        self.eos_token = eos_token
        self.vocab = Vocab(["<pad>", init_token, eos_token] + tokens)


class Seq2Seq(nn.Module):
    def __init__(self, src_vcb_sz, trg_vcb_sz, d_model=16):
        super().__init__()
        self.src_emb = nn.Embedding(src_vcb_sz, d_model)
        self.trg_emb = nn.Embedding(trg_vcb_sz, d_model)
        self.fc_out = nn.Linear(d_model, trg_vcb_sz)

    def forward(self, src, trg):
        memory = self.src_emb(src).mean(dim=1, keepdim=True)  # [batch, 1, d_model]
        dec = self.trg_emb(trg) + memory  # [batch, trg_len, d_model]
        steps = torch.arange(1, trg.shape[1] + 1, device=trg.device).view(1, -1, 1)
        dec = torch.cumsum(dec, dim=1) / steps  # causal running mean
        return self.fc_out(torch.tanh(dec))  # [batch, trg_len, trg_vcb_sz]


def beam_search(sentence, model, src_field, src_tokenizer, trg_field, trg_vcb_sz, k, max_ts=50, device="cpu"):
    sentence_tok = src_tokenizer(sentence)
    sentence_tok.insert(0, src_field.init_token)
    sentence_tok.append(src_field.eos_token)

    src_tok = torch.tensor([src_field.vocab.stoi[token] for token in sentence_tok], dtype=torch.long).unsqueeze(0).to(device)
    trg_tok = torch.tensor([trg_field.vocab.stoi[trg_field.init_token]], dtype=torch.long).unsqueeze(0).to(device)
    eos = trg_field.vocab.stoi[trg_field.eos_token]

    trans_store = {}
    store_seq_id = None
    store_seq_prob = None
    for ts in range(max_ts):
        if ts == 0:
            with torch.no_grad():
                out = model(src_tok, trg_tok)  # [1, trg_vcb_sz]
            topk = torch.topk(torch.log(torch.softmax(out, dim=-1)), dim=-1, k=k)
            seq_id = torch.empty(size=(k, ts + 2), dtype=torch.long)
            seq_id[:, :ts + 1] = trg_tok
            seq_id[:, ts + 1] = topk.indices
            seq_prob = topk.values
            if eos in seq_id[:, ts + 1]:
                trans_store[seq_prob[:, seq_id[:, ts + 1] == eos].squeeze()] = seq_id[seq_id[:, ts + 1] == eos, :].squeeze()
                store_seq_id = copy.deepcopy(seq_id[seq_id[:, ts + 1] != eos, :]).to(device)
                store_seq_prob = copy.deepcopy(seq_prob[:, seq_id[:, ts + 1] != eos].squeeze()).to(device)
            else:
                store_seq_id = copy.deepcopy(seq_id).to(device)
                store_seq_prob = copy.deepcopy(seq_prob).to(device)
        else:
            src_tok = src_tok.squeeze()
            src = src_tok.expand(size=(store_seq_id.shape[-2], len(src_tok))).to(device)
            with torch.no_grad():
                out = model(src, store_seq_id)
            out = torch.log(torch.softmax(out[:, -1, :], dim=-1))  # [k, trg_vcb_sz]
            all_comb = (store_seq_prob.view(-1, 1) + out).view(-1)
            all_comb_idx = torch.tensor([(x, y) for x in range(store_seq_id.shape[-2]) for y in range(trg_vcb_sz)])
            topk = torch.topk(all_comb, dim=-1, k=k)
            top_seq_id = all_comb_idx[topk.indices.squeeze()]
            top_seq_prob = topk.values
            seq_id = torch.empty(size=(k, ts + 2), dtype=torch.long)
            seq_id[:, :ts + 1] = torch.tensor([store_seq_id[i.tolist()].tolist() for i, y in top_seq_id])
            seq_id[:, ts + 1] = torch.tensor([y.tolist() for i, y in top_seq_id])
            seq_prob = top_seq_prob
            if eos in seq_id[:, ts + 1]:
                trans_store[seq_prob[seq_id[:, ts + 1] == eos].squeeze()] = seq_id[seq_id[:, ts + 1] == eos, :].squeeze()
                store_seq_id = copy.deepcopy(seq_id[seq_id[:, ts + 1] != eos, :]).to(device)
                store_seq_prob = copy.deepcopy(seq_prob[seq_id[:, ts + 1] != eos].squeeze()).to(device)
            else:
                store_seq_id = copy.deepcopy(seq_id).to(device)
                store_seq_prob = copy.deepcopy(seq_prob).to(device)
        if len(trans_store) == k:
            break

    if len(trans_store) == 0:
        best_translation = store_seq_id[0]
    else:
        best_translation = trans_store[max(trans_store)]
    return " ".join([trg_field.vocab.itos[w] for w in best_translation[1:]])


if __name__ == "__main__":
    torch.manual_seed(2)
    src_field = Field("the cat sat on a mat dog ran".split())
    trg_field = Field("billi chatai par baithi kutta bhaaga ek".split())
    trg_vcb_sz = len(trg_field.vocab.itos)
    model = Seq2Seq(len(src_field.vocab.itos), trg_vcb_sz).eval()
    with torch.no_grad():
        model.fc_out.bias[trg_field.vocab.stoi["<eos>"]] += 1.0  # short outputs are common

    translation = beam_search("the cat sat on a mat", model, src_field, str.split, trg_field, trg_vcb_sz, k=5, max_ts=8)
    print(translation)
