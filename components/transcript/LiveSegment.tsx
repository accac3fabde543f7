// A streamed segment's element: written by LiveProse only, never re-rendered by Preact (its
// first HTML is what the server rendered, or empty). Rendered inside the Transcript island.
import { Component, createRef } from "preact";
import type { Segment } from "../../lib/shared/transcript_turns.ts";
import type { LiveProse } from "../../lib/browser/live_prose.ts";

export interface LiveSegmentProps {
  seg: Segment;
  sinkKey: string;
  prose: LiveProse;
  streaming: boolean;
}

export class LiveSegment extends Component<LiveSegmentProps> {
  private el = createRef<HTMLDivElement>();
  override shouldComponentUpdate() {
    return false;
  }
  override componentDidMount() {
    const { prose, sinkKey, seg, streaming } = this.props;
    if (this.el.current) prose.attach(sinkKey, this.el.current, seg, streaming);
  }
  override componentWillUnmount() {
    this.props.prose.detach(this.props.sinkKey);
  }
  render() {
    return (
      <div
        ref={this.el}
        class="msg msg-assistant prose"
        data-seg={this.props.seg.key}
        // deno-lint-ignore react-no-danger
        dangerouslySetInnerHTML={{ __html: this.props.seg.html ?? "" }}
      />
    );
  }
}
