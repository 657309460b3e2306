// The frame plot (uPlot, from npm, copied beside the page at build time): one point a second
// from the `frames` event — what the scripts cost (mean and worst) and the loop's period —
// with each reload marked by a line and its frame stall.
const MAX_POINTS = 300;

export class FramePlot {
  constructor(container) {
    this.container = container;
    this.data = [[], [], [], []]; // time, script mean, script max, frame mean
    this.reloads = []; // {time, stall, ok}
    this.plot = null;
    this.missing = false;
    this.load();
  }

  async load() {
    try {
      const { default: uPlot } = await import('./vendor/uPlot.esm.js');
      this.plot = new uPlot({
        width: Math.max(260, this.container.clientWidth - 8), height: 170,
        scales: { x: { time: true } },
        series: [{}, { label: 'scripts mean ms', stroke: '#6cb6ff' },
          { label: 'scripts max ms', stroke: '#e3b341' }, { label: 'frame ms', stroke: '#8a93a3', dash: [4, 4] }],
        axes: [{ stroke: '#8a93a3' }, { stroke: '#8a93a3', size: 40 }],
        hooks: { draw: [(u) => this.drawReloads(u)] },
      }, this.data, this.container);
    } catch (error) {
      this.missing = true;
      this.container.textContent = `the frame plot needs uPlot (tools/bootstrap installs it): ${error.message}`;
    }
  }

  add(frames) {
    for (const [series, value] of [[0, frames.time], [1, frames.scriptMs.mean], [2, frames.scriptMs.max], [3, frames.frameMs.mean]]) {
      this.data[series].push(value);
      if (this.data[series].length > MAX_POINTS) this.data[series].shift();
    }
    this.container.dataset.points = this.data[0].length;
    this.plot?.setData(this.data);
  }

  reload(report) {
    this.reloads.push({ time: Date.now() / 1000, stall: report.timings?.frameStallMs ?? 0, ok: report.success });
    if (this.reloads.length > MAX_POINTS) this.reloads.shift();
    this.container.dataset.reloads = this.reloads.length;
    this.plot?.redraw(false);
  }

  drawReloads(u) {
    const context = u.ctx;
    context.save();
    context.font = `${11 * devicePixelRatio}px sans-serif`;
    for (const mark of this.reloads) {
      const x = u.valToPos(mark.time, 'x', true);
      if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
      context.strokeStyle = context.fillStyle = mark.ok ? '#5fd38d' : '#ff7b72';
      context.beginPath();
      context.moveTo(x, u.bbox.top);
      context.lineTo(x, u.bbox.top + u.bbox.height);
      context.stroke();
      context.fillText(`${mark.stall.toFixed(1)} ms`, x + 3, u.bbox.top + 12 * devicePixelRatio);
    }
    context.restore();
  }
}
