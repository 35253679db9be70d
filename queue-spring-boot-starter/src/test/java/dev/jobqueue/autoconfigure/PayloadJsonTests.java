package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

import tools.jackson.databind.DefaultTyping;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.BasicPolymorphicTypeValidator;

class PayloadJsonTests {

	record Order(String customerName, List<Object> lines) {
	}

	@Test
	void theApplicationsMapperWritesPayloadsWithItsSettingsButNeverWithDefaultTyping() {
		JsonMapper application = JsonMapper.builder()
			.propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
			.activateDefaultTyping(BasicPolymorphicTypeValidator.builder().allowIfBaseType(Object.class).build(),
					DefaultTyping.NON_FINAL)
			.build();
		StaticListableBeanFactory beans = new StaticListableBeanFactory();
		beans.addBean("jsonMapper", application);

		JsonMapper mapper = PayloadJson.mapper(beans.getBeanProvider(JsonMapper.class));

		assertThat(mapper.writeValueAsString(new Order("Ada", List.of("tea"))))
			.isEqualTo("{\"customer_name\":\"Ada\",\"lines\":[\"tea\"]}");
	}

	@Test
	void withoutAnApplicationMapperAPlainOneIsUsed() {
		ObjectProvider<JsonMapper> none = new StaticListableBeanFactory().getBeanProvider(JsonMapper.class);

		assertThat(PayloadJson.mapper(none).writeValueAsString(new Order("Ada", List.of())))
			.isEqualTo("{\"customerName\":\"Ada\",\"lines\":[]}");
	}
}
