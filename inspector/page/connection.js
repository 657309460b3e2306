// The control protocol over the inspector's WebSocket (host/control/PROTOCOL.md): requests
// with ids, their replies as promises, events to listeners. The socket reconnects by itself;
// the server says when the host behind it comes and goes ({"event":"inspector"}).

export class Connection {
  constructor(url) {
    this.url = url;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Map();
    this.socket = null;
    this.retryMs = 250;
    this.open();
  }

  open() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener('open', () => { this.retryMs = 250; this.emit('socket', { open: true }); });
    socket.addEventListener('message', (message) => this.receive(message.data));
    socket.addEventListener('close', () => {
      this.failPending('the connection to the inspector closed');
      this.emit('socket', { open: false });
      setTimeout(() => this.open(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 4000);
    });
  }

  receive(text) {
    let message;
    try { message = JSON.parse(text); } catch { return; }
    if (message.event !== undefined) {
      this.emit(message.event, message.data);
      return;
    }
    const waiter = this.pending.get(message.id);
    if (!waiter) return;
    this.pending.delete(message.id);
    if (message.ok) waiter.resolve(message.result);
    else waiter.reject(Object.assign(new Error(message.error?.message ?? 'request failed'),
                                     { code: message.error?.code, details: message.error }));
  }

  // Sends {"id", "cmd", ...args}; resolves with the result, rejects with the host's error.
  request(cmd, args = {}) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN)
      return Promise.reject(Object.assign(new Error('not connected'), { code: 'not_connected' }));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, cmd, ...args }));
    });
  }

  failPending(why) {
    for (const waiter of this.pending.values())
      waiter.reject(Object.assign(new Error(why), { code: 'not_connected' }));
    this.pending.clear();
  }

  on(event, listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(listener);
  }

  emit(event, data) {
    for (const listener of this.listeners.get(event) ?? []) listener(data);
  }
}
