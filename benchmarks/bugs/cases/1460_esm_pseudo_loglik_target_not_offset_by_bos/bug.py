import torch
import torch.nn as nn

AMINO_ACIDS = "LAGVSERTIDPKQNFYMHWC"


class Alphabet:
    def __init__(self):
        self.all_toks = ["<cls>", "<pad>", "<eos>", "<unk>"] + list(AMINO_ACIDS) + ["<mask>"]
        self.tok_to_idx = {t: i for i, t in enumerate(self.all_toks)}
        self.cls_idx = self.tok_to_idx["<cls>"]
        self.eos_idx = self.tok_to_idx["<eos>"]
        self.mask_idx = self.tok_to_idx["<mask>"]

    def get_idx(self, tok):
        return self.tok_to_idx.get(tok, self.tok_to_idx["<unk>"])

    def encode(self, sequence):
        ids = [self.cls_idx] + [self.get_idx(c) for c in sequence] + [self.eos_idx]
        return torch.tensor([ids], dtype=torch.long)


class TinyProteinMLM(nn.Module):
    def __init__(self, vocab_size, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.mix = nn.Conv1d(dim, dim, kernel_size=5, padding=2)
        self.head = nn.Linear(dim, vocab_size)

    def forward(self, tokens):
        h = self.embed(tokens)
        h = h + torch.tanh(self.mix(h.transpose(1, 2)).transpose(1, 2))
        return {"logits": self.head(h)}


@torch.no_grad()
def pseudo_log_likelihood(model, alphabet, sequence):
    """Sum of log p(x_i | x_-i) with each residue masked in turn (ESM-style PLL).

    Args:
        model: masked LM returning a dict with `logits` of shape (batch, L + 2, vocab).
        alphabet: token vocabulary; `encode` prepends <cls> and appends <eos>.
        sequence (str): the protein, L residues.

    Returns:
        torch.Tensor: scalar, the pseudo-log-likelihood of the sequence.
    """
    batch_tokens = alphabet.encode(sequence)                      # (1, L + 2)
    residue_ids = torch.tensor([alphabet.get_idx(c) for c in sequence])  # (L,)
    positions = torch.arange(1, len(sequence) - 1)                 # token positions to mask
    n = positions.numel()

    masked = batch_tokens.repeat(n, 1)
    masked[torch.arange(n), positions] = alphabet.mask_idx
    log_probs = torch.log_softmax(model(masked)["logits"], dim=-1)  # (n, L + 2, vocab)
    at_masked = log_probs[torch.arange(n), positions]                # (n, vocab)
    targets = residue_ids[positions]
    return at_masked.gather(-1, targets.unsqueeze(-1)).squeeze(-1).sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    alphabet = Alphabet()
    model = TinyProteinMLM(len(alphabet.all_toks)).eval()
    wildtype = "MKTAYIAKQRQISFVKSHFSRQ"
    mutant = wildtype[:5] + "P" + wildtype[6:]
    pll_wt = pseudo_log_likelihood(model, alphabet, wildtype)
    pll_mt = pseudo_log_likelihood(model, alphabet, mutant)
    print(f"PLL wt={pll_wt.item():.4f} mut={pll_mt.item():.4f} score={(pll_mt - pll_wt).item():.4f}")
    tokens = alphabet.encode(wildtype)
    one_at_a_time = 0.0
    for i, aa in enumerate(wildtype):
        t = tokens.clone()
        t[0, i + 1] = alphabet.mask_idx
        with torch.no_grad():
            one_at_a_time += torch.log_softmax(model(t)["logits"], dim=-1)[0, i + 1, alphabet.get_idx(aa)].item()
    print(f"wt PLL masking each residue in turn: {one_at_a_time:.4f}")
