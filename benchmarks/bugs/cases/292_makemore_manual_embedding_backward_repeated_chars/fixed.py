import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "anna", "ella", "lily"]
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
vocab_size = len(stoi)
block_size = 3  # context length: how many characters do we take to predict the next one?


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    return torch.tensor(X), torch.tensor(Y)


Xtr, Ytr = build_dataset(words)
n_embd, n_hidden, batch_size = 5, 16, 16
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, n_embd), generator=g)
W1 = torch.randn((n_embd * block_size, n_hidden), generator=g) * 0.2
b1 = torch.randn(n_hidden, generator=g) * 0.1
W2 = torch.randn((n_hidden, vocab_size), generator=g) * 0.1
b2 = torch.randn(vocab_size, generator=g) * 0.1
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True

ix = torch.randint(0, Xtr.shape[0], (batch_size,), generator=g)
Xb, Yb = Xtr[ix], Ytr[ix]  # batch X,Y

# forward pass, chunked into smaller steps that are possible to backward one at a time
emb = C[Xb]  # embed the characters into vectors (32, 3, 10)
embcat = emb.view(emb.shape[0], -1)  # concatenate the vectors (32, 30)
hpreact = embcat @ W1 + b1  # hidden layer pre-activation (32, 64)
h = torch.tanh(hpreact)  # hidden layer (32, 64)
logits = h @ W2 + b2  # output layer (32, 27)
loss = F.cross_entropy(logits, Yb)
for p in parameters:
    p.grad = None
for t in [emb, embcat, hpreact, h, logits]:
    t.retain_grad()
loss.backward()

# manual backprop
dlogits = F.softmax(logits, 1)
dlogits[range(batch_size), Yb] -= 1
dlogits /= batch_size  # (32, 27)
dh = dlogits @ W2.T  # (32, 64)
dhpreact = (1.0 - h ** 2) * dh  # (32, 64)
dembcat = dhpreact @ W1.T  # (32, 30)
demb = dembcat.view(emb.shape)  # (32, 3, 10)
dC = torch.zeros_like(C)  # (27, 10)
dC.index_add_(0, Xb.view(-1), demb.view(-1, n_embd))

print("contexts with a repeated character:", sum(len(set(row)) < block_size for row in Xb.tolist()), "of", batch_size)
print("max |dC - autograd C.grad|:", round((dC - C.grad).abs().max().item(), 4))
ref = [[0.0] * n_embd for _ in range(vocab_size)]
for k in range(Xb.shape[0]):
    for j in range(Xb.shape[1]):
        for d in range(n_embd):
            ref[Xb[k, j].item()][d] += demb[k, j, d].item()
assert torch.allclose(dC, torch.tensor(ref), atol=1e-6) and torch.allclose(dC, C.grad, atol=1e-6)
print("ok")
